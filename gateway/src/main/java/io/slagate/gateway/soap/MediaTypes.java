package io.slagate.gateway.soap;


/** Reads one parameter of a media type, e.g. {@code action} of {@code application/soap+xml; action="urn:x"}. */
final class MediaTypes {
    private MediaTypes() {
    }

    static String parameter(String mediaType, String name) {
        int i = mediaType.indexOf(';');
        while (i >= 0 && i < mediaType.length()) {
            int start = i + 1;
            while (start < mediaType.length() && mediaType.charAt(start) == ' ') {
                start++;
            }
            int eq = mediaType.indexOf('=', start);
            if (eq < 0) {
                return null;
            }
            String key = mediaType.substring(start, eq).trim();
            int valueStart = eq + 1;
            String value;
            int next;
            if (valueStart < mediaType.length() && mediaType.charAt(valueStart) == '"') {
                int close = mediaType.indexOf('"', valueStart + 1);
                if (close < 0) {
                    return null;
                }
                value = mediaType.substring(valueStart + 1, close);
                next = mediaType.indexOf(';', close);
            } else {
                next = mediaType.indexOf(';', valueStart);
                value = mediaType.substring(valueStart, next < 0 ? mediaType.length() : next).trim();
            }
            if (key.equalsIgnoreCase(name)) {
                return value;
            }
            i = next;
        }
        return null;
    }
}
