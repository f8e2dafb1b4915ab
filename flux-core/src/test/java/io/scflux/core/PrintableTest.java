/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Control characters a file holds print as escapes, on one line; printable text (a backslash too) stays as it is. */
class PrintableTest {

    static Stream<Arguments> texts() {
        return Stream.of(
                Arguments.of("a\u0000b", "a\\x00b"),
                Arguments.of("line\nscflux: error: forged", "line\\nscflux: error: forged"),
                Arguments.of("\u001b[31mred", "\\x1b[31mred"),
                Arguments.of("tab\tcr\r", "tab\\tcr\\r"),
                Arguments.of("del\u007f c1\u0085", "del\\x7f c1\\x85"),
                Arguments.of("ls\u2028rlo\u202e", "ls\\u2028rlo\\u202e"),
                Arguments.of("C:\\path\\x00 kept", "C:\\path\\x00 kept"));
    }

    @ParameterizedTest
    @MethodSource("texts")
    void controlCharactersAreEscaped(String text, String expected) {
        assertEquals(expected, Printable.escape(text));
        assertEquals(expected, Printable.escape(expected), "escaping twice changes nothing");
    }

    @Test
    void printableTextIsReturnedItself() {
        String text = "plain text, ünïcode and 漢字";
        assertSame(text, Printable.escape(text));
    }

    @Test
    void aFormatErrorQuotesTheFileEscaped() {
        assertEquals(
                "f.h5: genome\\x1b[0m: GRCh38\\n",
                new ScfluxFormatException("f.h5", "genome\u001b[0m", "GRCh38\n").getMessage());
    }
}
