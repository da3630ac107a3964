package io.slagate.console;

import static io.slagate.console.Api.text;
import io.slagate.console.Api.ApiError;
import io.slagate.console.Api.Call;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The customers the gateways authenticate: list (names and mechanisms, never a hash), add, rotate and revoke
 * Basic passwords ({@code /api/customers/basic[/NAME]}) and API keys ({@code /api/customers/keys[/NAME]}; a new
 * key is shown once, in the answer that made it). Every change is written to the credential files, published to
 * the gateways (which hold it from their next request) and audited, never with a secret.
 */
final class CustomersApi {
    private static final Pattern CUSTOMER = Pattern.compile("[A-Za-z0-9._@-]{1,64}");
    private static final String BASIC = "/api/customers/basic";
    private static final String KEYS = "/api/customers/keys";

    private final CustomerCredentials files;
    private final CredentialsRollout rollout;
    private final AuditLog audit;

    CustomersApi(CustomerCredentials files, CredentialsRollout rollout, AuditLog audit) {
        this.files = files;
        this.rollout = rollout;
        this.audit = audit;
    }

    static boolean handles(String path) {
        return path.equals(BASIC) || path.startsWith(BASIC + "/") || path.equals(KEYS) || path.startsWith(KEYS + "/");
    }

    void list(Call call) {
        Api.requireAdmin(call.session());
        try {
            List<Map<String, Object>> customers = new ArrayList<>();
            for (Map.Entry<String, TreeSet<String>> e : files.customers().entrySet()) {
                customers.add(Map.of("customer", e.getKey(), "mechanisms", e.getValue()));
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("basic", files.basicConfigured());
            out.put("apiKeys", files.apiKeysConfigured());
            out.put("customers", customers);
            out.put("rollout", rollout.view());
            call.ok(out);
        } catch (IOException e) {
            throw new ApiError(500, "the credential files could not be read: " + e.getMessage(), null);
        }
    }

    /** POST adds, PUT rotates, DELETE revokes; the caller has checked the admin role and the CSRF token. */
    void change(Call call) {
        boolean basic = call.path().startsWith(BASIC);
        String base = basic ? BASIC : KEYS;
        if (basic ? !files.basicConfigured() : !files.apiKeysConfigured()) {
            throw new ApiError(409, (basic ? "gateway.authentication.basic.htpasswd" : "gateway.authentication.apiKey.file")
                    + " is not set: the gateways do not use " + (basic ? "Basic passwords" : "API keys"), null);
        }
        long behind = rollout.behind();
        if (behind > 0) {
            throw new ApiError(409, "the gateways apply customers' credentials v" + behind + ", newer than this console's files:"
                    + " a change here would undo it; this console takes it from the console that made it (its next change), or"
                    + " copy that console's files here", null);
        }
        String name = call.path().equals(base) ? null
                : URLDecoder.decode(call.path().substring(base.length() + 1), StandardCharsets.UTF_8);
        Map<String, Object> out = new LinkedHashMap<>();
        try {
            String action = switch (call.method()) {
                case "POST" -> {
                    if (name != null) {
                        throw new ApiError(405, "POST " + base + " adds a customer; PUT " + base + "/NAME rotates", null);
                    }
                    name = customer(text(call.json(), "customer"));
                    if (basic ? files.hasBasic(name) : files.hasKey(name)) {
                        throw new ApiError(409, name + " has " + (basic ? "a password" : "a key") + "; rotate it instead", "customer");
                    }
                    yield put(call, basic, name, out) + "-add";
                }
                case "PUT" -> {
                    requireExisting(basic, name);
                    yield put(call, basic, name, out) + "-rotate";
                }
                case "DELETE" -> {
                    requireExisting(basic, name);
                    if (basic) {
                        files.revokeBasic(name);
                    } else {
                        files.revokeKey(name);
                    }
                    yield (basic ? "customer-basic" : "customer-key") + "-revoke";
                }
                default -> throw new ApiError(405, call.method() + " is not allowed on " + call.path(), null);
            };
            out.put("customer", name);
            audit.record(call.session().user(), action, name, call.address());
            // answered once every live gateway applies the change, or at the deadline naming those that do not
            rollout.publish(call.session().user()).whenComplete((reach, e) -> {
                out.put("version", reach.version());
                out.put("applied", reach.applied());
                out.put("pending", reach.pending());
                call.ok(out);
            });
        } catch (IOException e) {
            throw new ApiError(500, "the credential files could not be read or written (nothing was published): " + e.getMessage(), null);
        }
    }

    private String put(Call call, boolean basic, String name, Map<String, Object> out) throws IOException {
        if (basic) {
            String password = text(call.json(), "password");
            if (password.length() < UsersApi.MIN_PASSWORD) {
                throw new ApiError(400, "a password needs at least " + UsersApi.MIN_PASSWORD + " characters", "password");
            }
            if (password.getBytes(StandardCharsets.UTF_8).length > CustomerCredentials.MAX_PASSWORD_BYTES) {
                throw new ApiError(400, "bcrypt reads " + CustomerCredentials.MAX_PASSWORD_BYTES
                        + " bytes of a password; the gateways refuse a longer one", "password");
            }
            files.putBasic(name, password.toCharArray());
            return "customer-basic";
        }
        out.put("key", files.newKey(name)); // shown this once
        return "customer-key";
    }

    private void requireExisting(boolean basic, String name) throws IOException {
        if (name == null || !(basic ? files.hasBasic(name) : files.hasKey(name))) {
            throw new ApiError(404, "no customer " + (name == null ? "named" : name) + " with " + (basic ? "a password" : "a key"),
                    "customer");
        }
    }

    private static String customer(String name) {
        if (!CUSTOMER.matcher(name).matches()) {
            throw new ApiError(400, "a customer name is 1 to 64 letters, digits, '.', '_', '@' or '-'", "customer");
        }
        return name;
    }

}
