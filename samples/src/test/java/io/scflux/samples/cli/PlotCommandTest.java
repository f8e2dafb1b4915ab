/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.samples.test.Images;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code scflux plot} on the fixture after the existing commands wrote what each plot shows (qc with an mt variable,
 * normalize, log1p, hvg, pca, rank-genes-groups): a decodable PNG per kind, and one clear error per kind on the raw
 * fixture.
 */
class PlotCommandTest {

    @TempDir
    static Path dir;

    static Path analysed;

    @BeforeAll
    static void analyse() {
        Path in = Cli.FIXTURES.resolve("synth-3k-b.h5ad");
        Path qc = dir.resolve("qc.h5ad");
        Path norm = dir.resolve("norm.h5ad");
        Path log = dir.resolve("log.h5ad");
        Path hvg = dir.resolve("hvg.h5ad");
        Path pca = dir.resolve("pca.h5ad");
        analysed = dir.resolve("markers.h5ad");
        for (String[] args : new String[][] {
            {"qc", in.toString(), "-o", qc.toString(), "--qc-var", "mt=MT-"},
            {"normalize", qc.toString(), "-o", norm.toString()},
            {"log1p", norm.toString(), "-o", log.toString()},
            {"hvg", log.toString(), "-o", hvg.toString()},
            {"pca", hvg.toString(), "-o", pca.toString(), "--n-comps", "10"},
            {"rank-genes-groups", pca.toString(), "-o", analysed.toString(), "--groupby", "cell_type"}
        }) {
            Cli cli = Cli.run(args);
            assertEquals(0, cli.exitCode(), cli.err());
        }
    }

    @ParameterizedTest
    @CsvSource({"qc, 1200", "hvg, 600", "pca, 700"})
    void drawsAPngOfEachKind(String kind, int minWidth) throws IOException {
        Path png = dir.resolve(kind + ".png");
        Cli cli = Cli.run("plot", kind, analysed.toString(), "-o", png.toString());
        assertEquals(0, cli.exitCode(), cli.err());
        BufferedImage image = Images.decode(Files.readAllBytes(png));
        assertTrue(image.getWidth() >= minWidth, "width " + image.getWidth());
        assertTrue(image.getHeight() >= 300, "height " + image.getHeight());
        assertTrue(Images.colours(image) > 1, "drawn in more than one colour");
        assertTrue(Images.hues(image, 50) >= 1, "something drawn in colour");
        if (png.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            Path probe = Files.write(dir.resolve(kind + ".probe"), new byte[0]);
            assertEquals(
                    Files.getPosixFilePermissions(probe),
                    Files.getPosixFilePermissions(png),
                    "as readable as any file this user writes (umask), not owner-only");
        }
    }

    /** The fixture's obs sample has 6 categories (synth-3k-b.expected.tsv): each gets a colour of its own. */
    @Test
    void pcaColouredByACategoricalHasAColourPerCategory() throws IOException {
        Path plain = dir.resolve("pca-plain.png");
        Path coloured = dir.resolve("pca-sample.png");
        assertEquals(
                0,
                Cli.run("plot", "pca", analysed.toString(), "-o", plain.toString())
                        .exitCode());
        Cli cli = Cli.run("plot", "pca", analysed.toString(), "-o", coloured.toString(), "--color", "sample");
        assertEquals(0, cli.exitCode(), cli.err());
        assertTrue(
                Images.hues(Images.decode(Files.readAllBytes(plain)), 50) <= 2, "one colour of points without --color");
        assertTrue(Images.hues(Images.decode(Files.readAllBytes(coloured)), 50) >= 5, "a colour per sample");
        Cli numeric = Cli.run(
                "plot",
                "pca",
                analysed.toString(),
                "-o",
                dir.resolve("pca-counts.png").toString(),
                "--color",
                "total_counts");
        assertEquals(0, numeric.exitCode(), numeric.err());
    }

    @ParameterizedTest
    @CsvSource({
        "qc,  'no obs column total_counts, n_genes_by_counts', scflux qc",
        "hvg, 'no var column means, highly_variable',          scflux hvg",
        "pca, no obsm X_pca,                                   scflux pca",
        "rank-genes-groups, no uns rank_genes_groups,          scflux rank-genes-groups"
    })
    void aFileWithoutWhatThePlotShowsNamesTheKeyAndTheCommand(String kind, String key, String command) {
        Path raw = Cli.FIXTURES.resolve("synth-3k-b.h5ad");
        Cli cli = Cli.run(
                "plot", kind, raw.toString(), "-o", dir.resolve("never.png").toString());
        assertEquals(1, cli.exitCode());
        assertTrue(cli.err().startsWith("scflux: error: " + raw + ": " + key), cli.err());
        assertTrue(cli.err().contains("run " + command + " on it first"), cli.err());
        assertFalse(Files.exists(dir.resolve("never.png")));
    }

    @Test
    void anUnknownColourColumnListsTheColumns() {
        Cli cli = Cli.run(
                "plot",
                "pca",
                analysed.toString(),
                "-o",
                dir.resolve("never.png").toString(),
                "--color",
                "nope");
        assertEquals(2, cli.exitCode());
        assertTrue(cli.err().contains("no obs column nope to colour by (columns: sample, cell_type, batch"), cli.err());
    }

    @Test
    void anUnknownKindIsAUsageError() {
        Cli cli = Cli.run(
                "plot",
                "tsne",
                analysed.toString(),
                "-o",
                dir.resolve("never.png").toString());
        assertEquals(2, cli.exitCode());
        assertTrue(cli.err().contains("unknown plot tsne (known: qc, hvg, pca, umap, rank-genes-groups)"), cli.err());
    }

    /**
     * The fixture's 8 cell types (T01..T08) as scanpy lays them out, four panels to a row of 320 pixels: two rows;
     * the service's step is named in scanpy's spelling when the results are missing.
     */
    @Test
    void rankGenesGroupsIsAPanelPerGroupFourToARow() throws IOException {
        Path png = dir.resolve("markers.png");
        Cli cli = Cli.run("plot", "rank-genes-groups", analysed.toString(), "-o", png.toString(), "--n-genes", "5");
        assertEquals(0, cli.exitCode(), cli.err());
        BufferedImage image = Images.decode(Files.readAllBytes(png));
        assertEquals(4 * 320, image.getWidth());
        assertEquals(2 * 320, image.getHeight());
        assertTrue(Images.colours(image) > 1, "drawn");
        Cli none = Cli.run(
                "plot",
                "rank-genes-groups",
                analysed.toString(),
                "-o",
                dir.resolve("never.png").toString(),
                "--n-genes",
                "0");
        assertEquals(2, none.exitCode(), none.err());
        assertTrue(none.err().contains("--n-genes 0: at least one gene per group"), none.err());
        Cli raw = Cli.run(
                "plot",
                "rank-genes-groups",
                Cli.FIXTURES.resolve("synth-3k-b.h5ad").toString(),
                "-o",
                dir.resolve("never.png").toString());
        assertTrue(raw.err().contains("(in a service job: the rank_genes_groups step)"), raw.err());
    }
}
