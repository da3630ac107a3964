package io.slagate.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * An address block such as {@code 10.0.0.0/8}, {@code 192.0.2.7} or {@code fd00::/8}: literal
 * addresses only, so parsing never asks DNS. Used for the proxies whose forwarding headers are trusted.
 */
public final class Cidr {
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:.]*:[0-9a-fA-F:.]*");

    private final byte[] network;
    private final int prefix;

    private Cidr(byte[] network, int prefix) {
        this.network = network;
        this.prefix = prefix;
    }

    /** What is wrong with {@code text}, or null when it is a valid address or block. */
    public static String problem(String text) {
        try {
            parse(text);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    public static Cidr parse(String text) {
        String t = text.trim();
        int slash = t.indexOf('/');
        String addr = slash < 0 ? t : t.substring(0, slash);
        if (!IPV4.matcher(addr).matches() && !IPV6.matcher(addr).matches()) {
            throw new IllegalArgumentException("is not an IP address or block; write e.g. 10.0.0.0/8, 192.0.2.7 or fd00::/8");
        }
        byte[] bytes;
        try {
            bytes = InetAddress.getByName(addr).getAddress(); // a literal: no lookup
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("is not an IP address or block; write e.g. 10.0.0.0/8, 192.0.2.7 or fd00::/8");
        }
        int max = bytes.length * 8;
        int prefix = max;
        if (slash >= 0) {
            try {
                prefix = Integer.parseInt(t.substring(slash + 1));
            } catch (NumberFormatException e) {
                prefix = -1;
            }
            if (prefix < 0 || prefix > max) {
                throw new IllegalArgumentException("has a prefix length outside 0.." + max);
            }
        }
        return new Cidr(bytes, prefix);
    }

    /**
     * The address {@code text} writes literally ({@code 192.0.2.7}, {@code 2001:db8::1}, {@code [2001:db8::1]}), or null
     * when it is no literal address: never a DNS lookup.
     */
    public static InetAddress literal(String text) {
        String t = text.length() > 2 && text.charAt(0) == '[' && text.charAt(text.length() - 1) == ']'
                ? text.substring(1, text.length() - 1) : text;
        if (t.length() > 45 || !(IPV4.matcher(t).matches() && octets(t)) && !IPV6.matcher(t).matches()) {
            return null;
        }
        try {
            return InetAddress.getByName(t); // a literal: no lookup
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** Whether each part of a dotted quad is at most 255 (a larger one would be taken for a host name and looked up). */
    private static boolean octets(String dotted) {
        for (String part : dotted.split("\\.")) {
            if (Integer.parseInt(part) > 255) {
                return false;
            }
        }
        return true;
    }

    public boolean contains(InetAddress address) {
        byte[] a = address.getAddress();
        if (a.length != network.length) {
            return false;
        }
        int full = prefix / 8;
        for (int i = 0; i < full; i++) {
            if (a[i] != network[i]) {
                return false;
            }
        }
        int rest = prefix % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xFF << (8 - rest)) & 0xFF;
        return (a[full] & mask) == (network[full] & mask);
    }
}
