/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class PackedStringsTest {

    private static final PackedStrings A = PackedStrings.of(new String[] {"AAAC-1", "", "zellé-ß"});
    private static final PackedStrings B = PackedStrings.of(new String[] {"日本", "x"});
    private static final PackedStrings NONE = PackedStrings.of(new String[0]);

    @Test
    void concatIsTheStringsOneAfterTheOther() {
        PackedStrings c = PackedStrings.concat(List.of(A, NONE, B));
        assertArrayEquals(new String[] {"AAAC-1", "", "zellé-ß", "日本", "x"}, c.toArray());
    }

    @Test
    void concatAppendsEachPartsSuffix() {
        PackedStrings c = PackedStrings.concat(List.of(A, NONE, B), new String[] {"-é0", "-1", null});
        assertArrayEquals(new String[] {"AAAC-1-é0", "-é0", "zellé-ß-é0", "日本", "x"}, c.toArray());
        assertEquals("AAAC-1-é0-é0zellé-ß-é0日本x", new String(c.utf8(), 0, c.end(4), StandardCharsets.UTF_8));
    }

    @Test
    void concatOfPartsOverLongerArraysTakesOnlyTheirStrings() {
        PackedStrings over = PackedStrings.of("abcTRAILING".getBytes(StandardCharsets.UTF_8), new int[] {1, 3});
        assertArrayEquals(
                new String[] {"a", "bc", "a_", "bc_"},
                PackedStrings.concat(List.of(over, over), new String[] {null, "_"})
                        .toArray());
        assertEquals(3, PackedStrings.concat(List.of(over)).utf8().length);
    }

    @Test
    void concatNeedsOneSuffixPerPart() {
        assertThrows(IllegalArgumentException.class, () -> PackedStrings.concat(List.of(A, B), new String[1]));
    }
}
