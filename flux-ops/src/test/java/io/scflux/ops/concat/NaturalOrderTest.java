/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.concat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class NaturalOrderTest {

    @Test
    void digitRunsCompareByValueAndLeadingZerosOnlyBreakTies() {
        String[] s = {"T10", "b", "T2", "T007", "T7", "7", "T0", "T00", "T1a", "T1"};
        Arrays.sort(s, NaturalOrder.INSTANCE);
        assertArrayEquals(new String[] {"7", "T0", "T00", "T1", "T1a", "T2", "T007", "T7", "T10", "b"}, s);
    }

    /** Agrees in sign with a plain substring-and-regex reading of the same rules on random names. */
    @Test
    void agreesWithASubstringReadingOfTheRules() {
        Random random = new Random(7);
        String alphabet = "0019aZ-";
        for (int t = 0; t < 20_000; t++) {
            String a = word(random, alphabet);
            String b = word(random, alphabet);
            assertEquals(
                    Integer.signum(reference(a, b)),
                    Integer.signum(NaturalOrder.INSTANCE.compare(a, b)),
                    a + " vs " + b);
        }
    }

    private static String word(Random random, String alphabet) {
        char[] c = new char[random.nextInt(7)];
        for (int k = 0; k < c.length; k++) {
            c[k] = alphabet.charAt(random.nextInt(alphabet.length()));
        }
        return new String(c);
    }

    private static int reference(String a, String b) {
        String[] x = a.split("(?<=\\d)(?=\\D)|(?<=\\D)(?=\\d)");
        String[] y = b.split("(?<=\\d)(?=\\D)|(?<=\\D)(?=\\d)");
        int n = a.isEmpty() || b.isEmpty() ? 0 : Math.min(x.length, y.length);
        for (int k = 0; k < n; k++) {
            boolean dx = Character.isDigit(x[k].charAt(0));
            boolean dy = Character.isDigit(y[k].charAt(0));
            int c;
            if (dx && dy) {
                String p = x[k].replaceFirst("^0+(?=.)", "");
                String q = y[k].replaceFirst("^0+(?=.)", "");
                c = p.length() != q.length() ? Integer.compare(p.length(), q.length()) : p.compareTo(q);
            } else {
                c = dx != dy ? (dx ? -1 : 1) : x[k].compareTo(y[k]);
            }
            if (c != 0) {
                return c;
            }
        }
        int c = Integer.compare(a.isEmpty() ? 0 : x.length - n, b.isEmpty() ? 0 : y.length - n);
        return c != 0 ? c : a.compareTo(b);
    }
}
