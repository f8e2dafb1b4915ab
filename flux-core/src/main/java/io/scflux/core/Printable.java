/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import org.jspecify.annotations.Nullable;

/**
 * Text from a file (a genome's name, a column's value, a path) made safe to print on one line of a terminal or a log:
 * every control character is written as an escape ({@code \n}, {@code \t}, {@code \x1b}, {@code \u2028}), so that a
 * file cannot end an error line early, forge a second one or send a terminal its escape sequences. Printable text,
 * a backslash included, is kept as it is, so escaping twice changes nothing.
 */
public final class Printable {

    private Printable() {}

    /**
     * {@code text} with its control characters escaped: C0 ({@code \0} to {@code \x1f}), DEL, C1 ({@code \x80} to
     * {@code \x9f}), the line and paragraph separators and the bidirectional overrides and isolates.
     *
     * @param text what to print, or null
     * @return {@code text} on one line ("null" for null)
     */
    public static String escape(@Nullable String text) {
        if (text == null) {
            return "null";
        }
        int first = 0;
        while (first < text.length() && !control(text.charAt(first))) {
            first++;
        }
        if (first == text.length()) {
            return text;
        }
        StringBuilder b = new StringBuilder(text.length() + 16).append(text, 0, first);
        for (int i = first; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!control(c)) {
                b.append(c);
            } else if (c == '\n') {
                b.append("\\n");
            } else if (c == '\r') {
                b.append("\\r");
            } else if (c == '\t') {
                b.append("\\t");
            } else if (c < 0x100) {
                b.append("\\x").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 0xf, 16));
            } else {
                b.append(String.format("\\u%04x", (int) c));
            }
        }
        return b.toString();
    }

    private static boolean control(char c) {
        return c < 0x20
                || (c >= 0x7f && c <= 0x9f)
                || c == '\u2028'
                || c == '\u2029'
                || (c >= '\u202a' && c <= '\u202e')
                || (c >= '\u2066' && c <= '\u2069');
    }
}
