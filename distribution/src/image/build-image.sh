#!/usr/bin/env bash
# Builds slagate's OCI image as a tarball, without a container daemon or a registry:
#   build-image.sh RELEASE.tar.gz OUT.tar VERSION
# The image holds a Java runtime made by jlink from the building JDK, the shared libraries it links
# (copied from the building host: a glibc system), a non-root user (10001), and the release archive
# unpacked in /opt/slagate. Its entrypoint is java itself (there is no shell); the default command
# starts the embedded system on the configuration mounted at /etc/slagate/slagate.yaml.
# OUT.tar is an OCI image layout (index.json) that also carries a manifest.json, so both
# `podman load` / `skopeo copy oci-archive:` and `docker load` take it.
set -euo pipefail
release="$1"; out="$2"; version="$3"
java_home="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
root="$work/rootfs"
mkdir -p "$root/opt" "$root/etc/slagate" "$root/tmp"
chmod 0755 "$root" # the image's / (mktemp made its directory 0700: the non-root user could not reach anything)
chmod 1777 "$root/tmp"

# the runtime: the modules a SOAP gateway, ActiveMQ and Jetty use, no debug symbols, no man pages
"$java_home/bin/jlink" --add-modules java.se,jdk.unsupported,jdk.crypto.ec,jdk.crypto.cryptoki,jdk.jfr,jdk.management,jdk.management.agent,jdk.naming.dns,jdk.localedata,jdk.charsets,jdk.zipfs,jdk.net,jdk.jcmd \
  --strip-debug --no-man-pages --no-header-files --output "$root/opt/java"

# the shared libraries the runtime links, and the dynamic loader, at their host paths
copy_lib() { local f; f="$(readlink -f "$1")"; mkdir -p "$root$(dirname "$1")"; cp -n "$f" "$root$1" 2>/dev/null || true; }
while read -r lib; do copy_lib "$lib"; done < <(
  find "$root/opt/java" -type f \( -name '*.so' -o -perm -u+x \) -print0 | xargs -0 -r ldd 2>/dev/null \
    | awk -v own="$root" '/=> \// {print $3} /^\t\/lib/ {print $1}' | grep -v "^$root" | sort -u)
for extra in /etc/ssl/certs/ca-certificates.crt; do [ -f "$extra" ] && copy_lib "$extra"; done

printf 'root:x:0:0:root:/root:/sbin/nologin\nslagate:x:10001:10001:slagate:/opt/slagate:/sbin/nologin\n' > "$root/etc/passwd"
printf 'root:x:0:\nslagate:x:10001:\n' > "$root/etc/group"
tar xzf "$release" -C "$root/opt"
mv "$root/opt/slagate-$version" "$root/opt/slagate"
cp "$root/opt/slagate/config/slagate.yaml" "$root/etc/slagate/slagate.yaml"
# the user's own files (the console's users, its audit log) are written beside the configuration
chown -R 10001:10001 "$root/etc/slagate" 2>/dev/null || chmod 0777 "$root/etc/slagate"

blobs="$work/layout/blobs/sha256"
mkdir -p "$blobs"
tar --sort=name --numeric-owner --mtime='2026-01-01 00:00Z' -C "$root" -cf "$work/layer.tar" .
diff_id="$(sha256sum "$work/layer.tar" | cut -d' ' -f1)"
gzip -n -6 "$work/layer.tar"
layer="$(sha256sum "$work/layer.tar.gz" | cut -d' ' -f1)"
layer_size="$(stat -c %s "$work/layer.tar.gz")"
mv "$work/layer.tar.gz" "$blobs/$layer"

cat > "$work/config.json" <<JSON
{"architecture":"amd64","os":"linux",
 "config":{"User":"10001:10001","WorkingDir":"/opt/slagate",
  "Env":["PATH=/opt/java/bin","JAVA_HOME=/opt/java","LD_LIBRARY_PATH=/opt/java/lib:/opt/java/lib/server"],
  "Entrypoint":["/opt/java/bin/java","-XX:+UseG1GC","-XX:MaxRAMPercentage=70","-Dslagate.home=/opt/slagate","-jar","/opt/slagate/lib/slagate.jar"],
  "Cmd":["start","--config","/etc/slagate/slagate.yaml"],
  "ExposedPorts":{"8080/tcp":{},"8081/tcp":{},"8082/tcp":{}},
  "Labels":{"org.opencontainers.image.title":"slagate","org.opencontainers.image.version":"$version","org.opencontainers.image.licenses":"Apache-2.0"}},
 "rootfs":{"type":"layers","diff_ids":["sha256:$diff_id"]},
 "history":[{"created_by":"distribution/src/image/build-image.sh"}]}
JSON
config="$(sha256sum "$work/config.json" | cut -d' ' -f1)"
config_size="$(stat -c %s "$work/config.json")"
mv "$work/config.json" "$blobs/$config"

cat > "$work/manifest.json" <<JSON
{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json",
 "config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"sha256:$config","size":$config_size},
 "layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar+gzip","digest":"sha256:$layer","size":$layer_size}]}
JSON
manifest="$(sha256sum "$work/manifest.json" | cut -d' ' -f1)"
manifest_size="$(stat -c %s "$work/manifest.json")"
mv "$work/manifest.json" "$blobs/$manifest"

printf '{"imageLayoutVersion":"1.0.0"}' > "$work/layout/oci-layout"
cat > "$work/layout/index.json" <<JSON
{"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json",
 "manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:$manifest","size":$manifest_size,
  "annotations":{"org.opencontainers.image.ref.name":"$version","io.containerd.image.name":"slagate:$version"}}]}
JSON
cat > "$work/layout/manifest.json" <<JSON
[{"Config":"blobs/sha256/$config","RepoTags":["slagate:$version"],"Layers":["blobs/sha256/$layer"]}]
JSON
tar --sort=name --numeric-owner --owner=0 --group=0 --mtime='2026-01-01 00:00Z' -C "$work/layout" -cf "$out" .
echo "slagate image: $out ($(du -h "$out" | cut -f1), sha256:$manifest)" >&2
