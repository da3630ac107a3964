package io.slagate;
public final class Main { public static void main(String[] a) {} }
