/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Strings kept as one UTF-8 byte array and their end offsets: an obs index of a million cell barcodes in about
 * 16 MB and two objects, where Java strings take about 64 MB and two million objects for the collector to copy.
 * Immutable; {@link #get} makes a {@code String} only when one is asked for.
 */
public final class PackedStrings {

    private final byte[] utf8;
    /** {@code ends[i]} is where string {@code i} ends; it starts where string {@code i - 1} ends (or at 0). */
    private final int[] ends;

    private PackedStrings(byte[] utf8, int[] ends) {
        this.utf8 = utf8;
        this.ends = ends;
    }

    /**
     * Strings over {@code utf8} (not copied) where string {@code i} is {@code utf8[ends[i - 1], ends[i])};
     * {@code ends} must not decrease and end within {@code utf8}.
     */
    public static PackedStrings of(byte[] utf8, int[] ends) {
        Objects.requireNonNull(utf8, "utf8");
        int previous = 0;
        for (int i = 0; i < ends.length; i++) {
            if (ends[i] < previous || ends[i] > utf8.length) {
                throw new IllegalArgumentException("string " + i + " ends at " + ends[i] + ", before its start "
                        + previous + " or past the " + utf8.length + " bytes");
            }
            previous = ends[i];
        }
        return new PackedStrings(utf8, ends);
    }

    /** {@code strings} packed; none may be null. */
    public static PackedStrings of(String[] strings) {
        byte[][] each = new byte[strings.length][];
        long total = 0;
        for (int i = 0; i < strings.length; i++) {
            if (strings[i] == null) {
                throw new IllegalArgumentException("entry " + i + " is missing");
            }
            each[i] = strings[i].getBytes(StandardCharsets.UTF_8);
            total += each[i].length;
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(
                    strings.length + " strings take " + total + " bytes, more than one array");
        }
        byte[] utf8 = new byte[(int) total];
        int[] ends = new int[strings.length];
        int at = 0;
        for (int i = 0; i < each.length; i++) {
            System.arraycopy(each[i], 0, utf8, at, each[i].length);
            at += each[i].length;
            ends[i] = at;
        }
        return new PackedStrings(utf8, ends);
    }

    public int size() {
        return ends.length;
    }

    /** String {@code i}, decoded. */
    public String get(int i) {
        int start = start(i);
        return new String(utf8, start, ends[i] - start, StandardCharsets.UTF_8);
    }

    /** Where string {@code i}'s bytes start in {@link #utf8()}. */
    public int start(int i) {
        return i == 0 ? 0 : ends[i - 1];
    }

    /** Where string {@code i}'s bytes end in {@link #utf8()}. */
    public int end(int i) {
        return ends[i];
    }

    /** The bytes of every string, one after the other (not a copy; do not modify). */
    /** @return where each string ends in {@link #utf8} (exclusive), a copy: a front end splits the bytes by them */
    public int[] ends() {
        return ends.clone();
    }

    public byte[] utf8() {
        return utf8;
    }

    /** Every string, decoded. */
    public String[] toArray() {
        String[] out = new String[ends.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = get(i);
        }
        return out;
    }

    /** Strings {@code rows}, in that order. */
    public PackedStrings take(int[] rows) {
        long total = 0;
        for (int r : rows) {
            total += ends[r] - start(r);
        }
        byte[] out = new byte[Math.toIntExact(total)];
        int[] outEnds = new int[rows.length];
        int at = 0;
        for (int i = 0; i < rows.length; i++) {
            int s = start(rows[i]);
            int n = ends[rows[i]] - s;
            System.arraycopy(utf8, s, out, at, n);
            at += n;
            outEnds[i] = at;
        }
        return new PackedStrings(out, outEnds);
    }

    /** The strings of {@code parts} one after the other. */
    public static PackedStrings concat(List<PackedStrings> parts) {
        return concat(parts, new String[parts.size()]);
    }

    /**
     * The strings of {@code parts} one after the other, each followed by its part's suffix ({@code suffixes[i]} for
     * part {@code i}; null for none), copied as bytes without decoding any.
     */
    public static PackedStrings concat(List<PackedStrings> parts, String[] suffixes) {
        if (suffixes.length != parts.size()) {
            throw new IllegalArgumentException(parts.size() + " parts but " + suffixes.length + " suffixes");
        }
        byte[][] tails = new byte[suffixes.length][];
        long total = 0;
        int count = 0;
        for (int i = 0; i < tails.length; i++) {
            tails[i] = suffixes[i] == null ? new byte[0] : suffixes[i].getBytes(StandardCharsets.UTF_8);
            PackedStrings p = parts.get(i);
            total += p.utf8Length() + (long) tails[i].length * p.size();
            count = Math.addExact(count, p.size());
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(count + " strings take " + total + " bytes, more than one array");
        }
        byte[] utf8 = new byte[(int) total];
        int[] ends = new int[count];
        int at = 0;
        int n = 0;
        for (int i = 0; i < tails.length; i++) {
            PackedStrings p = parts.get(i);
            byte[] tail = tails[i];
            if (tail.length == 0) {
                System.arraycopy(p.utf8, 0, utf8, at, p.utf8Length());
                for (int k = 0; k < p.size(); k++) {
                    ends[n++] = at + p.ends[k];
                }
                at += p.utf8Length();
                continue;
            }
            for (int k = 0; k < p.size(); k++) {
                int s = p.start(k);
                int len = p.ends[k] - s;
                System.arraycopy(p.utf8, s, utf8, at, len);
                at += len;
                System.arraycopy(tail, 0, utf8, at, tail.length);
                at += tail.length;
                ends[n++] = at;
            }
        }
        return new PackedStrings(utf8, ends);
    }

    /** Bytes the strings take (their {@link #utf8()} array may be longer). */
    private int utf8Length() {
        return ends.length == 0 ? 0 : ends[ends.length - 1];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PackedStrings p && Arrays.equals(ends, p.ends) && Arrays.equals(utf8, p.utf8);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(ends) + Arrays.hashCode(utf8);
    }

    @Override
    public String toString() {
        return "PackedStrings[" + ends.length + " strings, " + utf8.length + " bytes]";
    }
}
