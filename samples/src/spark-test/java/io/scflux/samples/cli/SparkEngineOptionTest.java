package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.DenseArray;
import io.scflux.io.H5ad;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code scflux pipeline --engine spark --master local[2]} writes the same bits as the default local engine. */
class SparkEngineOptionTest {

    @TempDir
    Path tmp;

    private String err;

    private AnnData pipeline(String... engine) {
        Path out = tmp.resolve("pipeline-" + engine.length + ".h5ad");
        String[] args = {"--threads", "2", "--chunk-nnz", "5000", "pipeline",
            Cli.FIXTURES.resolve("synth-3k.int64.h5ad").toString(), "-o", out.toString(), "--n-top-genes", "300",
            "--n-comps", "10"};
        String[] all = Stream.concat(Stream.of(args), Stream.of(engine)).toArray(String[]::new);
        Cli c = Cli.run(all);
        assertEquals(0, c.exitCode(), c.err());
        err = c.err();
        return H5ad.read(out);
    }

    @Test
    void sparkLocalModeWritesTheSameBitsAsTheLocalEngine() throws Exception {
        AnnData local = pipeline();
        AnnData spark = pipeline("--engine", "spark", "--master", "local[2]");
        assertTrue(err.contains("passes over X on spark local[2]"), err);
        float[] a = (float[]) ((DenseArray) local.obsm().get("X_pca")).data();
        float[] b = (float[]) ((DenseArray) spark.obsm().get("X_pca")).data();
        assertEquals(a.length, b.length);
        for (int i = 0; i < a.length; i++) {
            assertEquals(Float.floatToRawIntBits(a[i]), Float.floatToRawIntBits(b[i]), "X_pca[" + i + "]");
        }
        for (String column : new String[] {"total_counts", "n_cells_by_counts", "means", "dispersions_norm"}) {
            assertSameArray(local.var().column(column), spark.var().column(column), "var " + column);
        }
        for (String column : new String[] {"total_counts", "pct_counts_in_top_50_genes"}) {
            assertSameArray(local.obs().column(column), spark.obs().column(column), "obs " + column);
        }
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(2, left.count(), "the two outputs, no part files left");
        }
    }

    /** Same primitive arrays (floats and doubles compared by their bits, as {@link java.util.Arrays#equals}). */
    private static void assertSameArray(Object expected, Object actual, String what) {
        Object x = ((ArrayColumn) expected).values().data();
        Object y = ((ArrayColumn) actual).values().data();
        assertTrue(x.getClass().isArray() && java.util.Objects.deepEquals(new Object[] {x}, new Object[] {y}), what);
    }
}
