package io.slagate.console;

import at.favre.lib.crypto.bcrypt.BCrypt;
import io.slagate.config.AtomicFiles;
import io.slagate.config.AuthenticationSettings;
import io.slagate.gateway.auth.Authenticator;
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
    /** bcrypt's cost for new entries (its library's default); a gateway pays it once per credential, then caches. */
    static final int COST = 10;
    /** bcrypt reads this many bytes of a password; the gateways refuse a longer one rather than match its prefix. */
    static final int MAX_PASSWORD_BYTES = 72;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path htpasswd;
    private final Path apiKeys;
    private long version;

    CustomerCredentials(AuthenticationSettings settings) {
        this.htpasswd = settings.htpasswd() == null ? null : Path.of(settings.htpasswd());
        this.apiKeys = settings.apiKeys() == null ? null : Path.of(settings.apiKeys());
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

    /** Adds or replaces {@code customer}'s password. */
    synchronized void putBasic(String customer, char[] password) throws IOException {
        String hash = BCrypt.with(BCrypt.Version.VERSION_2Y).hashToString(COST, password);
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

    /** The files' text now, for the gateways, and a version newer than any before. */
    synchronized Snapshot snapshot() throws IOException {
        version = Math.max(version + 1, System.currentTimeMillis());
        return new Snapshot(version, read(htpasswd), read(apiKeys));
    }

    record Snapshot(long version, String htpasswd, String apiKeys) {
    }

    private static String read(Path file) throws IOException {
        return file == null ? null : Files.isReadable(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }

    private static List<String> names(Path file) throws IOException {
        List<String> names = new ArrayList<>();
        if (file == null || !Files.isReadable(file)) {
            return names;
        }
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
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
        for (String l : Files.isReadable(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.<String>of()) {
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
