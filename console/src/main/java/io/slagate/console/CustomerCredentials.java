package io.slagate.console;

import at.favre.lib.crypto.bcrypt.BCrypt;
import io.slagate.config.AtomicFiles;
import io.slagate.config.AuthenticationSettings;
import io.slagate.gateway.auth.Authenticator;
import io.slagate.gateway.auth.CredentialsVersion;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The customers' credential files the gateways read ({@code gateway.authentication.basic.htpasswd} and
 * {@code apiKey.file}), edited in place: a Basic customer is a bcrypt line as {@code htpasswd -B} writes it, an
 * API key a {@code customer:sha256-hex} line. Lines of other customers, and comments, are kept as they are.
 * The key itself is made here, shown once, and never stored.
 */
final class CustomerCredentials {
    /**
     * Where the last version published or adopted came from: its number and the SHA-256 of the files' text. A snapshot
     * of the same text keeps the version; other text gets a newer one.
     */
    private long version;
    private String digest;
    /** bcrypt reads this many bytes of a password; the gateways refuse a longer one rather than match its prefix. */
    static final int MAX_PASSWORD_BYTES = 72;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path htpasswd;
    private final Path apiKeys;
    private final AuthenticationSettings settings;

    CustomerCredentials(AuthenticationSettings settings) {
        this.htpasswd = settings.htpasswd() == null ? null : Path.of(settings.htpasswd());
        this.apiKeys = settings.apiKeys() == null ? null : Path.of(settings.apiKeys());
        this.settings = settings;
        CredentialsVersion kept = CredentialsVersion.read(settings); // the version its files were at when last published
        this.version = kept.version();
        this.digest = kept.digest();
    }

    boolean basicConfigured() {
        return htpasswd != null;
    }

    boolean apiKeysConfigured() {
        return apiKeys != null;
    }

    /** Customer → the mechanisms it has credentials for ({@code basic}, {@code api-key}); names only. */
    synchronized TreeMap<String, TreeSet<String>> customers() throws IOException {
        TreeMap<String, TreeSet<String>> all = new TreeMap<>();
        for (String name : names(htpasswd)) {
            all.computeIfAbsent(name, n -> new TreeSet<>()).add("basic");
        }
        for (String name : names(apiKeys)) {
            all.computeIfAbsent(name, n -> new TreeSet<>()).add("api-key");
        }
        return all;
    }

    synchronized boolean hasBasic(String customer) throws IOException {
        return names(htpasswd).contains(customer);
    }

    synchronized boolean hasKey(String customer) throws IOException {
        return names(apiKeys).contains(customer);
    }

    /**
     * Adds or replaces {@code customer}'s password, at the cost of the file's dearest entry (at least bcrypt's default),
     * so that the file keeps one cost and no check is quicker than another.
     */
    synchronized void putBasic(String customer, char[] password) throws IOException {
        List<String> hashes = new ArrayList<>();
        for (String line : lines(htpasswd)) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                hashes.add(line.substring(colon + 1).trim());
            }
        }
        String hash = BCrypt.with(BCrypt.Version.VERSION_2Y).hashToString(Authenticator.bcryptCost(hashes), password);
        replace(htpasswd, customer, customer + ":" + hash);
    }

    /** Makes a new key for {@code customer}, replacing any it had; returns the key (shown once, stored as its digest). */
    synchronized String newKey(String customer) throws IOException {
        byte[] raw = new byte[32];
        RANDOM.nextBytes(raw);
        String key = "sk_" + Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
        replace(apiKeys, customer, customer + ":" + Authenticator.apiKeyDigest(key));
        return key;
    }

    /** Removes {@code customer}'s Basic entry. */
    synchronized void revokeBasic(String customer) throws IOException {
        replace(htpasswd, customer, null);
    }

    /** Removes {@code customer}'s keys. */
    synchronized void revokeKey(String customer) throws IOException {
        replace(apiKeys, customer, null);
    }

    /**
     * The files' text now, for the gateways: with the version last published when the text is the same, else a newer
     * one. A configured file that cannot be read is an error, never an empty file: published, it would revoke every
     * customer of every gateway.
     */
    synchronized Snapshot snapshot() throws IOException {
        String h = read(htpasswd);
        String k = read(apiKeys);
        String d = CredentialsVersion.digestOf(h, k);
        if (!d.equals(digest)) {
            version = Math.max(version + 1, System.currentTimeMillis());
            digest = d;
            new CredentialsVersion(version, digest).write(settings);
        }
        return new Snapshot(version, h, k);
    }

    /** The version of what was published or adopted last (0: nothing yet). */
    synchronized long version() {
        return version;
    }

    /**
     * Another console's change, newer than this one's: written over this console's files, so that its next change
     * starts from it rather than undo it. False when {@code version} is not newer (nothing done).
     */
    synchronized boolean adopt(long version, String htpasswdText, String apiKeysText) throws IOException {
        if (version <= this.version) {
            return false;
        }
        if (htpasswd != null && htpasswdText != null) {
            AtomicFiles.write(htpasswd, htpasswdText, true);
        }
        if (apiKeys != null && apiKeysText != null) {
            AtomicFiles.write(apiKeys, apiKeysText, true);
        }
        this.version = version;
        this.digest = CredentialsVersion.digestOf(read(htpasswd), read(apiKeys));
        new CredentialsVersion(version, digest).write(settings);
        return true;
    }

    record Snapshot(long version, String htpasswd, String apiKeys) {
    }

    private static String read(Path file) throws IOException {
        if (file == null) {
            return null;
        }
        if (!Files.exists(file)) {
            return ""; // not made yet: no customer of that mechanism
        }
        return Files.readString(file, StandardCharsets.UTF_8); // an unreadable file throws: nothing is published
    }

    private static List<String> lines(Path file) throws IOException {
        return file == null || !Files.exists(file) ? List.of() : Files.readAllLines(file, StandardCharsets.UTF_8);
    }

    private static List<String> names(Path file) throws IOException {
        List<String> names = new ArrayList<>();
        for (String line : lines(file)) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                names.add(line.substring(0, colon).trim());
            }
        }
        return names;
    }

    /** Drops {@code customer}'s lines and appends {@code line} (unless null); the file is replaced all at once. */
    private static void replace(Path file, String customer, String line) throws IOException {
        StringBuilder out = new StringBuilder();
        for (String l : lines(file)) {
            int colon = l.indexOf(':');
            if (l.startsWith("#") || colon <= 0 || !l.substring(0, colon).trim().equals(customer)) {
                out.append(l).append('\n');
            }
        }
        if (line != null) {
            out.append(line).append('\n');
        }
        AtomicFiles.write(file, out.toString(), true);
    }
}
