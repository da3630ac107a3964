package io.slagate.gateway.relay;

/**
 * A request whose field lines are kept as the client sent them, already read strictly by {@link RequestHead}: the relay
 * listener's. A proxy forwards the lines it keeps as bytes, runs of lines at a time, with no field rendered again. Line
 * {@code f} is the line of the request's field {@code getHeaders().getField(f)}.
 */
public interface SentFieldLines {
    /** The bytes that hold the lines; not to be changed. */
    byte[] lineBytes();

    /** Where field {@code f}'s line starts in {@link #lineBytes()}; for {@code f} = the field count, where the last line ends. */
    int lineStart(int f);
}
