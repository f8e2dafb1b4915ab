/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.Frame;
import io.scflux.io.H5ad;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Counts holding NaN, infinities, negative values or 1e308 (beyond float32): the commands that take counts end with
 * exit 1 and one line naming the file, X, the first offending cell and gene and the value, write nothing, and never
 * show an exception's class name or "this looks like a bug". (Before: preprocess wrote an all-NaN X with exit 0,
 * pipeline failed inside HVG with an ArrayIndexOutOfBoundsException or in PCA's Lanczos.)
 */
class HostileValuesTest {

    private static final List<List<String>> COMMANDS = List.of(
            List.of("qc", "--percent-top", "5"),
            List.of("preprocess", "--target-sum", "10000", "--percent-top", "5"),
            List.of("pipeline", "--n-top-genes", "10", "--n-comps", "3", "--percent-top", "5"),
            List.of("normalize"),
            List.of("hvg", "--flavor", "seurat_v3", "--n-top-genes", "10"),
            List.of("pseudobulk", "--sample-col", "sample", "--groups-col", "cell_type"));

    @TempDir
    Path tmp;

    /** 40 cells x 30 genes of counts whose cell 17, gene 4 holds {@code value} (its row's first entry). */
    private Path counts(float value) {
        CsrMatrix.Builder b = CsrMatrix.builder(30);
        String[] cells = new String[40];
        String[] samples = new String[40];
        String[] types = new String[40];
        for (int r = 0; r < 40; r++) {
            int[] genes = {(r * 7) % 30 == 4 ? 5 : 4, 10 + r % 20};
            if (r == 17) {
                genes[0] = 4;
            }
            b.addRow(genes, new float[] {r == 17 ? value : 1 + r % 5, 2 + r % 3});
            cells[r] = "AAAC" + r + "-1";
            samples[r] = "D" + r % 2;
            types[r] = "T" + r % 3;
        }
        Frame obs = new Frame(cells);
        obs.put("sample", CategoricalColumn.fromValues(samples));
        obs.put("cell_type", CategoricalColumn.fromValues(types));
        String[] genes = new String[30];
        for (int g = 0; g < genes.length; g++) {
            genes[g] = "G" + g;
        }
        Path file = tmp.resolve("counts-" + value + ".h5ad");
        H5ad.write(new AnnData(b.build(), obs, new Frame(genes)), file).block();
        return file;
    }

    @ParameterizedTest
    @ValueSource(floats = {Float.NaN, -1f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY})
    void countsThatAreNotCountsAreRefusedInOneLine(float value) throws Exception {
        Path in = counts(value);
        for (List<String> command : COMMANDS) {
            Path out = tmp.resolve("out.h5ad");
            List<String> args = new ArrayList<>(List.of("--threads", "2", command.get(0), in.toString()));
            args.addAll(command.subList(1, command.size()));
            args.addAll(List.of("-o", out.toString()));
            Cli c = Cli.run(args.toArray(String[]::new));
            assertEquals(1, c.exitCode(), command + ": " + c.err());
            String line = c.err()
                    .lines()
                    .filter(l -> l.startsWith("scflux: error: "))
                    .findFirst()
                    .orElseThrow();
            assertTrue(
                    line.startsWith("scflux: error: " + in + ": /X: X holds " + value + " at cell 'AAAC17-1', "
                            + "gene 'G4': `"),
                    command + ": " + line);
            assertTrue(line.endsWith(" expects raw counts, finite and not negative"), line);
            assertFalse(c.err().contains("looks like a bug") || c.err().contains("Exception"), c.err());
            assertFalse(Files.exists(out), "nothing written");
        }
    }

    @Test
    void aValueBeyondFloat32IsNamedAsSuch() throws Exception {
        Python.assumeAnndata();
        Path in = tmp.resolve("big.h5ad");
        Python.run("""
                import sys, anndata, numpy as np, scipy.sparse as sp
                x = sp.csr_matrix(np.ones((5, 4)))
                x.data[6] = 1e308
                try:
                    a = anndata.AnnData(x, dtype=x.dtype)   # anndata < 0.9 casts to float32 unless told
                except TypeError:
                    a = anndata.AnnData(x)
                a.obs_names = [f"c{i}" for i in range(5)]
                a.var_names = [f"g{i}" for i in range(4)]
                a.write_h5ad(sys.argv[1])
                """, in.toString());
        Cli c = Cli.run(
                "preprocess",
                in.toString(),
                "--percent-top",
                "1",
                "-o",
                tmp.resolve("o.h5ad").toString());
        assertEquals(1, c.exitCode(), c.err());
        assertTrue(
                c.err()
                        .contains("scflux: error: " + in + ": /X: X holds Infinity (or a value too large for "
                                + "float32, in which scflux's blocks carry values) at cell 'c1', gene 'g2': "),
                c.err());
    }
}
