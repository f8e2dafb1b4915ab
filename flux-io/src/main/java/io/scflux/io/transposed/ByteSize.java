/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.transposed;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A size in bytes as a user writes it (an option, an environment variable): a whole number of bytes, or one with a unit
 * {@code K}, {@code M} or {@code G}, powers of 1024 ({@code 1M} = 1,048,576; {@code KiB}, {@code MB}, lower case alike).
 */
public final class ByteSize {

    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(?:([kmg])(?:i?b)?|b)?");

    private ByteSize() {}

    /** The bytes {@code text} says; an IllegalArgumentException naming the accepted forms otherwise. */
    public static long parse(String text) {
        Matcher m = SIZE.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("not a size: " + text + " (bytes, or with a unit K, M or G: 1M)");
        }
        int shift = m.group(2) == null
                ? 0
                : switch (m.group(2)) {
                    case "k" -> 10;
                    case "m" -> 20;
                    default -> 30;
                };
        try {
            long n = Long.parseLong(m.group(1));
            if (n > Long.MAX_VALUE >> shift) {
                throw new NumberFormatException();
            }
            return n << shift;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("too large a size: " + text);
        }
    }
}
