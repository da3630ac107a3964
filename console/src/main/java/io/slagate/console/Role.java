package io.slagate.console;


/** What a console user may do: look ({@code read-only}), or also change things ({@code admin}). */
public enum Role {
    ADMIN("admin"), READ_ONLY("read-only");

    private final String text;

    Role(String text) {
        this.text = text;
    }

    public String text() {
        return text;
    }

    public static Role parse(String s) {
        for (Role r : values()) {
            if (r.text.equals(s)) {
                return r;
            }
        }
        throw new IllegalArgumentException("role \"" + s + "\" is not admin or read-only");
    }
}
