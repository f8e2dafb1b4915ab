/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.spark;

import static io.scflux.spark.SameBits.assertSameBits;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.RowReader;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.io.H5ad;
import io.scflux.io.WriteOptions;
import io.scflux.ops.Pp;
import io.scflux.ops.hvg.HighlyVariableGenesOptions;
import io.scflux.ops.pca.PcaOptions;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.spark.TaskContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pipeline's output written from Spark (X normalized and X_pca projected by the tasks into part files, assembled
 * by the driver) against the same output written by the local engine, read back from both files bit for bit; and the
 * same when a task fails on its first attempt and Spark retries it.
 */
class SparkWriterTest {

    private static final WriteOptions OPTIONS = WriteOptions.DEFAULT.withPlan(SparkEngineTest.SMALL);

    @TempDir
    Path dir;

    private static AnnData pipeline(AnnData data, Streaming streaming) {
        return Pp.pipeline(
                        data,
                        SparkEngineTest.PREPROCESS,
                        HighlyVariableGenesOptions.defaults(),
                        PcaOptions.defaults().withNComps(10),
                        streaming)
                .block();
    }

    private void assertSameFiles(AnnData remote) throws IOException {
        Path local = dir.resolve("local.h5ad");
        Path spark = dir.resolve("spark.h5ad");
        H5ad.write(pipeline(SparkEngineTest.read("synth-3k.int64.h5ad"), SparkEngineTest.LOCAL), local, OPTIONS)
                .block();
        SparkWriter.write(remote, spark, OPTIONS, LocalSpark.engine()).block();
        assertSameBits(H5ad.read(local), H5ad.read(spark));
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(local, spark), left.sorted().toList(), "the part files are removed");
        }
    }

    @Test
    void outputWrittenFromPartsIsTheSameBitsAsTheLocalOutput() throws IOException {
        Streaming spark = SparkEngineTest.LOCAL.withEngine(LocalSpark.engine());
        AnnData remote = pipeline(SparkEngineTest.read("synth-3k.int64.h5ad"), spark);
        assertTrue(remote.obsm().get("X_pca") instanceof BlockSource, "X_pca is projected as it is written");
        assertSameFiles(remote);
    }

    @Test
    void aTaskThatFailsOnItsFirstAttemptIsRetriedWithTheSameResult() throws IOException {
        Streaming spark = SparkEngineTest.LOCAL.withEngine(LocalSpark.engine());
        AnnData data = SparkEngineTest.read("synth-3k.int64.h5ad");
        int failuresBefore = Flaky.FAILURES.get();
        data.setX(new Flaky(data.x()));
        assertSameFiles(pipeline(data, spark));
        // the qc, hvg and pca passes, and the two matrices written: each failed its first attempt once
        assertEquals(5, Flaky.FAILURES.get() - failuresBefore);
    }

    /** A source whose row 1000, read in a Spark task's first attempt, fails. */
    private static final class Flaky implements BlockSource, Serializable {
        static final AtomicInteger FAILURES = new AtomicInteger();

        private final BlockSource base;

        Flaky(BlockSource base) {
            this.base = base;
        }

        @Override
        public long nRows() {
            return base.nRows();
        }

        @Override
        public int nCols() {
            return base.nCols();
        }

        @Override
        public DType dtype() {
            return base.dtype();
        }

        @Override
        public void rowNnz(long rowFrom, int count, int[] out) {
            base.rowNnz(rowFrom, count, out);
        }

        @Override
        public RowReader open() {
            RowReader reader = base.open();
            return RowReader.over(reader, (blockIndex, from, to) -> {
                TaskContext task = TaskContext.get();
                if (from <= 1000 && 1000 < to && task != null && task.attemptNumber() == 0) {
                    FAILURES.incrementAndGet();
                    throw new IllegalStateException("first attempt of the task reading row 1000 fails");
                }
                return reader.read(blockIndex, from, to);
            });
        }
    }
}
