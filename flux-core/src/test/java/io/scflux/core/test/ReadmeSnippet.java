/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/** Checks that code shown in the README is, word for word, code a test compiles and runs. */
public final class ReadmeSnippet {

    private ReadmeSnippet() {}

    /**
     * The README block that starts with {@code fence} (e.g. {@code "```java\n"}) equals the lines of {@code source}
     * between the lines {@code // <marker> begins} and {@code // <marker> ends}, indentation aside.
     */
    public static void assertShown(Path readme, String fence, Path source, String marker) throws IOException {
        String text = Files.readString(readme);
        int start = text.indexOf(fence);
        assertTrue(start >= 0, readme + " has no block starting " + fence.strip());
        String shown = text.substring(start + fence.length(), text.indexOf("```", start + fence.length()));
        String self = Files.readString(source);
        String begin = "// " + marker + " begins\n";
        int from = self.indexOf(begin);
        int to = self.indexOf("// " + marker + " ends");
        assertTrue(from >= 0 && to > from, source + " has no '" + marker + "' markers");
        String tested = self.substring(from + begin.length(), self.lastIndexOf('\n', to) + 1);
        assertEquals(unindent(tested), unindent(shown));
    }

    private static String unindent(String code) {
        List<String> lines = code.lines().map(String::stripTrailing).collect(Collectors.toList());
        int indent = lines.stream()
                .filter(l -> !l.isEmpty())
                .mapToInt(l -> l.length() - l.stripLeading().length())
                .min()
                .orElse(0);
        return lines.stream().map(l -> l.isEmpty() ? l : l.substring(indent)).collect(Collectors.joining("\n"));
    }
}
