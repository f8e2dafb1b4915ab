/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import io.scflux.core.Printable;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What the service says to its clients (problem details, job events) and writes to its log, with what must not leave
 * it taken out, in one place. The token becomes {@code [token]} in every spelling a text may carry it: as it is, in
 * any case (a token with its case changed tells nearly all of it), and percent-encoded, wholly or in part, once or
 * several times over ({@code %41}, {@code %2541} for {@code A}); so does whatever value follows a {@code token}
 * parameter ({@code ?token=}, {@code ;token=}, {@code %3Ftoken%3D}) or {@code Bearer}, so that a wrong or old token a
 * client sent is not written either. A text holding any of these is written percent-decoded, with the token out;
 * others are written as they are. The data folder's paths become relative ({@link DataFolder#scrub}).
 */
final class Redaction implements UnaryOperator<String> {

    /** What a token, or the value of a token parameter, is written as. */
    static final String HIDDEN = "[token]";

    /** How many times a text is percent-decoded at most: more layers than any client or proxy adds. */
    private static final int DECODINGS = 8;

    private static final Pattern ESCAPE = Pattern.compile("%[0-9A-Fa-f]{2}");
    /** A token parameter's name and {@code =}, after a separator; its value is group 1. */
    private static final Pattern PARAMETER = Pattern.compile("(?i)(?:^|[?&;/\\s])token=([^&;#/\\s]*)");
    /** An Authorization header's scheme; the credentials are group 1. */
    private static final Pattern BEARER = Pattern.compile("(?i)\\bbearer\\s+(\\S+)");

    private final DataFolder folder;
    private final Pattern token;

    /** Redaction of {@code token} and of {@code folder}'s paths. */
    Redaction(DataFolder folder, @Nullable String token) {
        this.folder = folder;
        this.token = Pattern.compile(Pattern.quote(token), Pattern.CASE_INSENSITIVE);
    }

    /** {@code text} (a message, or null) with the token hidden and the data folder's paths relative. */
    @Override
    public @Nullable String apply(String text) {
        return text == null ? null : folder.scrub(hideToken(text));
    }

    /**
     * {@code path}, a request's raw path as sent, for the log: percent-decoded (as a route reads it), the token hidden
     * and control characters escaped (a {@code %0A} would start a forged line).
     */
    String path(String path) {
        return Printable.escape(hide(decoded(path)));
    }

    /**
     * {@code text} as it is when it holds the token in no spelling, else decoded with every token hidden; decoded too
     * when it is encoded more times over than {@link #DECODINGS}, as what it hides cannot be told.
     */
    private String hideToken(String text) {
        String undone = undone(text);
        String plain = withoutEscapes(undone);
        String hidden = hide(plain);
        return hidden.equals(plain) && plain.equals(undone) ? text : hidden;
    }

    /** {@code text} without the token, a token parameter's value or a bearer's credentials. */
    private String hide(String text) {
        String out = hideValues(PARAMETER, text);
        out = hideValues(BEARER, out);
        return token.matcher(out).replaceAll(HIDDEN);
    }

    /**
     * {@code text} percent-decoded until no escape is left, at most {@link #DECODINGS} times; past that every escape
     * left is dropped ({@link #withoutEscapes}), so that what is written has no token hidden under yet another layer.
     */
    private static String decoded(String text) {
        return withoutEscapes(undone(text));
    }

    /** {@code text} percent-decoded until no escape is left, at most {@link #DECODINGS} times. */
    private static String undone(String text) {
        String out = text;
        for (int i = 0; i < DECODINGS && ESCAPE.matcher(out).find(); i++) {
            out = decodeOnce(out);
        }
        return out;
    }

    /**
     * {@code text} with each {@code %XX} left by {@link #undone} written U+FFFD: a bare {@code %} would make a new
     * escape of what follows ({@code %2541} would become {@code %41}).
     */
    private static String withoutEscapes(String text) {
        return ESCAPE.matcher(text).replaceAll("\uFFFD");
    }

    /** {@code text} with each {@code %XX} as its byte, the bytes read as UTF-8 (a malformed sequence as U+FFFD). */
    private static String decodeOnce(String text) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length());
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < utf8.length; i++) {
            if (utf8[i] == '%' && i + 2 < utf8.length && hex(utf8[i + 1]) >= 0 && hex(utf8[i + 2]) >= 0) {
                bytes.write(hex(utf8[i + 1]) << 4 | hex(utf8[i + 2]));
                i += 2;
            } else {
                bytes.write(utf8[i]);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static int hex(byte b) {
        return Character.digit(b, 16);
    }

    /** {@code text} with group 1 of each match of {@code pattern} (a value), when not empty, as {@link #HIDDEN}. */
    private static String hideValues(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        StringBuilder out = new StringBuilder();
        int end = 0;
        while (m.find()) {
            if (m.start(1) < m.end(1)) {
                out.append(text, end, m.start(1)).append(HIDDEN);
                end = m.end(1);
            }
        }
        return out.append(text, end, text.length()).toString();
    }
}
