/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The stages of a job's events: a step's own passes under its name, another's work named after it, repeats numbered. */
class StagesTest {

    private final Stages stages = new Stages();
    private final List<String> announced = new ArrayList<>();

    private String of(int pass, String name) {
        return stages.of(pass, name, announced::add);
    }

    @Test
    void aStepsOwnPassKeepsTheStageItStartedAndIsNotAnnouncedAgain() {
        stages.step("qc");
        assertEquals("qc", of(1, "qc"));
        assertEquals("qc", of(1, "qc"), "the same pass, the same stage");
        assertEquals(List.of(), announced, "the step's stage was announced when it started");
    }

    @Test
    void aWriteThatMakesQcsColumnsFirstHasTwoStages() {
        stages.step("write");
        assertEquals("write: qc", of(4, "qc"));
        assertEquals("write", of(5, "write"));
        assertEquals("write: qc", of(4, "qc"), "a report of the earlier pass, interleaved");
        assertEquals(List.of("write: qc", "write"), announced);
    }

    @Test
    void repeatedNamesAreNumberedAndUnnamedPassesAreTheSteps() {
        stages.step("hvg");
        assertEquals("hvg", of(2, "hvg"));
        assertEquals("hvg (pass 2)", of(3, "hvg"));
        stages.step("pca");
        assertEquals("pca", of(4, null));
        assertEquals("pca (pass 2)", of(5, "pca"));
        assertEquals(List.of("hvg (pass 2)", "pca (pass 2)"), announced);
    }
}
