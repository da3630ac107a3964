package io.slagate.gateway.classify;

import java.util.regex.Matcher;

/** One compiled field pattern of a rule: {@code *} (anything, even absent), an exact text, or a glob. */
abstract class Pattern {
    abstract boolean matches(String value);

    static Pattern compile(String glob) {
        if (glob == null || glob.equals("*")) {
            return ANY;
        }
        if (glob.indexOf('*') < 0) {
            return new Pattern() {
                @Override
                boolean matches(String value) {
                    return glob.equals(value);
                }
            };
        }
        java.util.regex.Pattern compiled = java.util.regex.Pattern.compile(
                globToRegex(glob), java.util.regex.Pattern.DOTALL);
        return new Pattern() {
            @Override
            boolean matches(String value) {
                if (value == null) {
                    return false;
                }
                Matcher m = compiled.matcher(value);
                return m.matches();
            }
        };
    }

    private static String globToRegex(String glob) {
        StringBuilder re = new StringBuilder();
        int start = 0;
        for (int i = 0; i < glob.length(); i++) {
            if (glob.charAt(i) == '*') {
                if (i > start) {
                    re.append(java.util.regex.Pattern.quote(glob.substring(start, i)));
                }
                re.append(".*");
                start = i + 1;
            }
        }
        if (start < glob.length()) {
            re.append(java.util.regex.Pattern.quote(glob.substring(start)));
        }
        return re.toString();
    }

    static final Pattern ANY = new Pattern() {
        @Override
        boolean matches(String value) {
            return true;
        }
    };
}
