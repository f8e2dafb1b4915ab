/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.io.test.TestFixtures;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code scflux fuzz}: the count of cases by outcome, one line each, that add up to the cases asked for. */
class FuzzCommandTest {

    private static final List<String> OUTCOMES =
            List.of("read", "rejected", "refused_too_large", "unclear_error", "out_of_memory", "timeout");

    @Test
    void theCommandPrintsCountsByOutcome() {
        Cli r = Cli.run(
                "fuzz",
                "--cases",
                "30",
                "--seed",
                "7",
                TestFixtures.path("legacy-07.h5ad").toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().startsWith("fuzz: 30 cases, seed 7"), r.out());
        int total = 0;
        for (String outcome : OUTCOMES) {
            Matcher m = Pattern.compile("(?m)^" + outcome + " +(\\d+)$").matcher(r.out());
            assertTrue(m.find(), outcome + " in " + r.out());
            total += Integer.parseInt(m.group(1));
        }
        assertEquals(30, total, r.out());
    }
}
