package io.slagate.console;

import io.slagate.config.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * The console's users, with their roles and password hashes, in a JSON file. When the file does
 * not exist, the first start creates it with one {@code admin} whose random password is returned
 * once (to be printed) and never stored: only its hash is. No default password exists.
 */
public final class UserStore {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public record User(String name, String role, String hash) {
        Role roleValue() {
            return Role.parse(role);
        }
    }

    private final Path file;
    private final Map<String, User> users = new LinkedHashMap<>();
    private final String generatedPassword;

    private UserStore(Path file, List<User> list, String generatedPassword) {
        this.file = file;
        for (User u : list) {
            users.put(u.name(), u);
        }
        this.generatedPassword = generatedPassword;
    }

    /** Loads the file, or creates it with a new admin; a malformed file is refused with its name and the problem. */
    public static UserStore open(Path file) throws IOException {
        if (Files.exists(file)) {
            List<User> list;
            try {
                list = JSON.readValue(file.toFile(), new TypeReference<List<User>>() { });
            } catch (IOException e) {
                throw new IOException(file + ": not a list of {name, role, hash}: " + e.getMessage(), e);
            }
            for (User u : list) {
                if (u.name() == null || u.hash() == null) {
                    throw new IOException(file + ": every user needs a name and a hash");
                }
                try {
                    u.roleValue();
                } catch (IllegalArgumentException e) {
                    throw new IOException(file + ": user " + u.name() + ": " + e.getMessage());
                }
            }
            return new UserStore(file, list, null);
        }
        String password = PasswordHasher.randomPassword();
        UserStore s = new UserStore(file, List.of(new User("admin", Role.ADMIN.text(), PasswordHasher.hash(password.toCharArray()))),
                password);
        s.save();
        return s;
    }

    /** The password created for {@code admin} on this start, or null when the users file already existed. */
    public String generatedPassword() {
        return generatedPassword;
    }

    /** The user's role if the password is right, else null. */
    public synchronized Role authenticate(String name, char[] password) {
        User u = users.get(name);
        if (u == null) {
            PasswordHasher.verify(password, DUMMY); // same work either way: no user enumeration by timing
            return null;
        }
        return PasswordHasher.verify(password, u.hash()) ? u.roleValue() : null;
    }

    private static final String DUMMY = PasswordHasher.hash("dummy".toCharArray());

    public synchronized void put(String name, Role role, char[] password) throws IOException {
        users.put(name, new User(name, role.text(), PasswordHasher.hash(password)));
        save();
    }

    /** Names and roles, never hashes. */
    public synchronized List<Map<String, String>> list() {
        return users.values().stream().map(u -> Map.of("user", u.name(), "role", u.role())).toList();
    }

    public synchronized boolean exists(String name) {
        return users.containsKey(name);
    }

    /**
     * Changes a user's role and/or password (null: unchanged).
     *
     * @throws IllegalStateException when that would leave no admin
     */
    public synchronized void update(String name, Role role, char[] password) throws IOException {
        User u = users.get(name);
        if (u == null) {
            throw new IllegalArgumentException("no user named " + name);
        }
        if (role != null && role != Role.ADMIN && u.roleValue() == Role.ADMIN && admins() == 1) {
            throw new IllegalStateException(name + " is the last admin");
        }
        users.put(name, new User(name, role == null ? u.role() : role.text(), password == null ? u.hash() : PasswordHasher.hash(password)));
        save();
    }

    /** @throws IllegalStateException when {@code name} is the last admin */
    public synchronized void delete(String name) throws IOException {
        User u = users.get(name);
        if (u == null) {
            throw new IllegalArgumentException("no user named " + name);
        }
        if (u.roleValue() == Role.ADMIN && admins() == 1) {
            throw new IllegalStateException(name + " is the last admin");
        }
        users.remove(name);
        save();
    }

    private long admins() {
        return users.values().stream().filter(u -> u.roleValue() == Role.ADMIN).count();
    }

    private void save() throws IOException {
        AtomicFiles.write(file, JSON.writeValueAsString(List.copyOf(users.values())), true);
    }
}
