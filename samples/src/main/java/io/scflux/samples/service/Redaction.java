package io.scflux.samples.service;

import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the service says to its clients (problem details, job events) and to its log, with what must not leave it
 * taken out, in one place. The data folder's absolute paths become relative ({@link DataFolder#scrub}): they would show
 * where the server keeps its data. The token becomes {@code [token]} in every spelling a text may carry it: as it is,
 * with any of its characters percent-encoded (once or more, {@code %41} or {@code %2541} for {@code A}), in any case;
 * and whatever value follows a {@code token} parameter ({@code ?token=}, {@code ;token=}, {@code &TOKEN=},
 * {@code %74oken%3D}) or {@code Bearer}, so that a wrong or old token a client sent is not written either. Control
 * characters are written as {@code \\uXXXX}, so that a line stays one line.
 */
final class Redaction implements UnaryOperator<String> {

    /** What a token, or the value of a token parameter, is written as. */
    static final String HIDDEN = "[token]";

    /** A token parameter's name and its {@code =}, each character as it is or percent-encoded; the value follows. */
    private static final Pattern PARAMETER = Pattern.compile("(?i)(?:^|[?&;/\\s]|%(?:25)*(?:3f|26|3b|2f))"
            + spelled("token") + "(?:=|%(?:25)*3d)([^&;#\\s]*)");
    private static final Pattern BEARER = Pattern.compile("(?i)\\bbearer\\s+(\\S+)");
    private static final Pattern CONTROL = Pattern.compile("\\p{Cntrl}");

    private final DataFolder folder;
    private final Pattern token;

    /** Redaction of {@code folder}'s paths and of {@code token}. */
    Redaction(DataFolder folder, String token) {
        this.folder = folder;
        this.token = Pattern.compile("(?i)" + spelled(token));
    }

    @Override
    public String apply(String text) {
        if (text == null) {
            return null;
        }
        String out = hideValues(PARAMETER, text);
        out = hideValues(BEARER, out);
        out = token.matcher(out).replaceAll(HIDDEN);
        out = CONTROL.matcher(out).replaceAll(m -> Matcher.quoteReplacement(String.format("\\u%04x",
                (int) m.group().charAt(0))));
        return folder.scrub(out);
    }

    /** {@code text} with group 1 of each match of {@code pattern} (a value) replaced by {@link #HIDDEN}. */
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

    /** A regex of {@code word}, each of its characters as it is or percent-encoded, any number of times over. */
    private static String spelled(String word) {
        StringBuilder regex = new StringBuilder();
        for (char c : word.toCharArray()) {
            regex.append("(?:").append(Pattern.quote(String.valueOf(c))).append("|%(?:25)*")
                    .append(String.format("%02x", (int) c)).append(')');
        }
        return regex.toString();
    }
}
