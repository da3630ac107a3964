package io.slagate.gateway.soap;


/**
 * Why the gateway answered a request itself. Each reason carries its machine-readable code (in the
 * fault's detail and the {@code X-Slagate-Fault} header), whose side is at fault (Sender/Client or
 * Receiver/Server), its HTTP-semantic status, and whether retrying later makes sense.
 */
public enum FaultReason {
    QUEUE_FULL("queue-full", false, 503, true, "The gateway's queue for this class is full"),
    QUEUE_TIMEOUT("queue-timeout", false, 503, true, "The request waited longer than its class's queue timeout"),
    SERVER_UNREACHABLE("server-unreachable", false, 502, true, "No server of this service could be reached"),
    SERVER_TIMEOUT("server-timeout", false, 504, false, "The server did not answer in time"),
    SERVER_FAILED("server-failed", false, 502, false, "The server closed the connection without a complete response"),
    REQUEST_TOO_LARGE("request-too-large", true, 413, false, "The request body exceeds the gateway's limit"),
    MALFORMED_REQUEST("malformed-request", true, 400, false, "The request is not a SOAP request the gateway can forward"),
    REQUEST_TIMEOUT("request-timeout", true, 408, false, "The request body did not arrive in time"),
    METHOD_NOT_ALLOWED("method-not-allowed", true, 405, false, "The gateway forwards only GET, HEAD and POST"),
    /** The client went away (before dispatch, or while its answer was being written); nothing can be sent to it. */
    CLIENT_ABORTED("client-aborted", true, 499, false, "The client closed its connection"),
    /** The client did not read its answer in time; the exchange was ended to free the server's slot. */
    RESPONSE_TIMEOUT("response-timeout", true, 408, false, "The client did not read the answer in time"),
    SHUTTING_DOWN("shutting-down", false, 503, true, "The gateway is shutting down"),
    /** The request's deadline (its class's, or the client's X-Request-Deadline) could no longer be met: not sent. */
    DEADLINE_EXCEEDED("deadline-exceeded", false, 504, true, "The request could not be answered within its deadline"),
    /** The customer's subscription quota is used up for now: refused at once, never queued, Retry-After from its bucket. */
    QUOTA_EXCEEDED("quota-exceeded", true, 429, true, "The customer's quota is used up for now; retry after the time given"),
    /** Credentials missing (where required) or wrong: 401 with WWW-Authenticate whatever the fault status policy. */
    UNAUTHENTICATED("unauthenticated", true, 401, false, "The request's credentials are missing or wrong"),
    /** Too many failed attempts from the client's address (or for the name it claims): refused without a check. */
    AUTHENTICATION_THROTTLED("authentication-throttled", true, 429, true, "Too many failed authentication attempts; retry later"),
    /** The SOAP header's WS-Security cannot be read or stood behind (malformed, a DTD or entity, two Security blocks...). */
    SECURITY_HEADER_INVALID("security-header-invalid", true, 400, false,
            "The request's WS-Security header is malformed or holds what the gateway does not accept"),
    /** A PasswordDigest UsernameToken: checking one needs the cleartext password, and the gateway keeps only bcrypt hashes. */
    PASSWORD_DIGEST_UNSUPPORTED("password-digest-unsupported", true, 400, false,
            "A PasswordDigest UsernameToken cannot be checked: the gateway keeps only bcrypt hashes; send PasswordText over TLS"),
    /** A header block for the gateway (actor or role next) with mustUnderstand, which the gateway does not understand. */
    MUST_UNDERSTAND("must-understand", true, 400, false, "A header block the gateway must understand is not understood"),
    /** The gateway's credential checks are all busy: its own overload, not the client's fault. */
    AUTHENTICATION_BUSY("authentication-busy", false, 503, true, "The gateway cannot check credentials now; retry later");

    private final String code;
    private final boolean senderFault;
    private final int httpStatus;
    private final boolean retryable;
    private final String text;

    FaultReason(String code, boolean senderFault, int httpStatus, boolean retryable, String text) {
        this.code = code;
        this.senderFault = senderFault;
        this.httpStatus = httpStatus;
        this.retryable = retryable;
        this.text = text;
    }

    public String code() {
        return code;
    }

    public boolean senderFault() {
        return senderFault;
    }

    public int httpStatus() {
        return httpStatus;
    }

    public boolean retryable() {
        return retryable;
    }

    public String text() {
        return text;
    }
}
