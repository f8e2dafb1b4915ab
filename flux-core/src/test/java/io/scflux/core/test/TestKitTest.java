/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.BlockPlan;
import io.scflux.core.Execution;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowBlock;
import io.scflux.core.Stage;
import io.scflux.core.anndata.CsrMatrix;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import reactor.test.StepVerifier;

/** The test kit users get (flux-core's test-jar): the example of docs/java.md runs, and each assertion can fail. */
class TestKitTest {

    private static final Path JAVA_PAGE = Path.of("../docs/java.md");
    private static final Path SELF = Path.of("src/test/java/io/scflux/core/test/TestKitTest.java");

    // README test kit begins
    @Test
    void log1pStageTransformsEachBlockOnDemand() {
        CsrMatrix counts = Matrices.of( // an in-memory source from dense rows
                new float[] {0, 3, 0}, new float[] {1, 0, 0}, new float[] {0, 0, 0}, new float[] {7, 0, 2});
        BlockPlan plan = counts.plan(new PlanTarget(2, 2)); // at most 2 entries and 2 rows per block
        Stage log1p = block -> {
            float[] v = block.values().clone();
            for (int i = 0; i < v.length; i++) {
                v[i] = (float) Math.log1p(v[i]);
            }
            return block.withValues(v);
        };
        StepVerifier.create(log1p.on(counts.blocks(plan, Execution.sequential())), 1)
                .assertNext(b -> BlockAssert.assertThat(b)
                        .isWellFormed()
                        .startsAtRow(0)
                        .hasRows(2)
                        .hasRow(0, new int[] {1}, new float[] {(float) Math.log1p(3)}))
                .thenRequest(1) // nothing more is read until it is requested
                .assertNext(b -> BlockAssert.assertThat(b)
                        .isWellFormed()
                        .startsAtRow(2)
                        .hasRows(2)
                        .hasRow(0, new int[0], new float[0])
                        .hasRow(1, new int[] {0, 2}, new float[] {(float) Math.log1p(7), (float) Math.log1p(2)}))
                .expectComplete() // the last block comes with the end
                .verify(Duration.ofSeconds(10));
    }
    // README test kit ends

    @Test
    void eachAssertionFailsOnAWrongBlock() {
        RowBlock b = Matrices.of(new float[] {0, 5}, new float[] {2, 0})
                .blocks(BlockPlan.uniform(2, 2, 1, PlanTarget.DEFAULT), Execution.sequential())
                .blockFirst();
        BlockAssert ok = BlockAssert.assertThat(b)
                .hasRows(2)
                .startsAtRow(0)
                .hasColumns(2)
                .hasNnz(2)
                .isWellFormed()
                .hasRow(0, new int[] {1}, new float[] {5})
                .hasValuesCloseTo(new float[] {5, 2}, 0);
        assertTrue(ok != null);
        List<Runnable> wrong = List.of(
                () -> BlockAssert.assertThat(b).hasRows(3),
                () -> BlockAssert.assertThat(b).startsAtRow(1),
                () -> BlockAssert.assertThat(b).hasColumns(3),
                () -> BlockAssert.assertThat(b).hasNnz(1),
                () -> BlockAssert.assertThat(b).hasRow(0, new int[] {0}, new float[] {5}),
                () -> BlockAssert.assertThat(b).hasRow(1, new int[] {0}, new float[] {2.5f}),
                () -> BlockAssert.assertThat(b).hasRow(2, new int[0], new float[0]),
                () -> BlockAssert.assertThat(b).hasValuesCloseTo(new float[] {5, 2.1f}, 1e-3),
                () -> BlockAssert.assertThat(RowBlock.of(0, 0, 2, new int[] {0, 1}, new int[] {7}, new float[] {1}))
                        .isWellFormed(),
                () -> BlockAssert.assertThat(null));
        for (int i = 0; i < wrong.size(); i++) {
            assertThrows(AssertionFailedError.class, wrong.get(i)::run, "assertion " + i + " passed a wrong block");
        }
    }

    @Test
    void randomMatricesAreSeeded() {
        Matrices.assertSame(Matrices.random(200, 30, 0.2, 7), Matrices.random(200, 30, 0.2, 7));
        assertThrows(
                AssertionFailedError.class,
                () -> Matrices.assertSame(Matrices.random(200, 30, 0.2, 7), Matrices.random(200, 30, 0.2, 8)));
        CsrMatrix empty = Matrices.of(new float[3], new float[3]);
        assertEquals(2, empty.nRows());
        assertEquals(0, empty.nnz());
    }

    @Test
    void theReadmeShowsThisCode() throws IOException {
        ReadmeSnippet.assertShown(JAVA_PAGE, "```java\n// test kit\n", SELF, "README test kit");
    }
}
