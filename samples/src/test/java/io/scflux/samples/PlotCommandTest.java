package io.scflux.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code scflux plot} on the fixture after the existing commands wrote what each plot shows (qc with an mt variable,
 * normalize, log1p, hvg, pca): a decodable PNG per kind, and one clear error per kind on the raw fixture.
 */
class PlotCommandTest {

    static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

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
        analysed = dir.resolve("pca.h5ad");
        for (String[] args : new String[][] {
            {"qc", in.toString(), "-o", qc.toString(), "--qc-var", "mt=MT-"},
            {"normalize", qc.toString(), "-o", norm.toString()},
            {"log1p", norm.toString(), "-o", log.toString()},
            {"hvg", log.toString(), "-o", hvg.toString()},
            {"pca", hvg.toString(), "-o", analysed.toString(), "--n-comps", "10"}}) {
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
        BufferedImage image = decode(Files.readAllBytes(png));
        assertTrue(image.getWidth() >= minWidth, "width " + image.getWidth());
        assertTrue(image.getHeight() >= 300, "height " + image.getHeight());
        assertTrue(colours(image) > 1, "drawn in more than one colour");
        assertTrue(hues(image, 50) >= 1, "something drawn in colour");
    }

    /** The fixture's obs sample has 6 categories (synth-3k-b.expected.tsv): each gets a colour of its own. */
    @Test
    void pcaColouredByACategoricalHasAColourPerCategory() throws IOException {
        Path plain = dir.resolve("pca-plain.png");
        Path coloured = dir.resolve("pca-sample.png");
        assertEquals(0, Cli.run("plot", "pca", analysed.toString(), "-o", plain.toString()).exitCode());
        Cli cli = Cli.run("plot", "pca", analysed.toString(), "-o", coloured.toString(), "--color", "sample");
        assertEquals(0, cli.exitCode(), cli.err());
        assertTrue(hues(decode(Files.readAllBytes(plain)), 50) <= 2, "one colour of points without --color");
        assertTrue(hues(decode(Files.readAllBytes(coloured)), 50) >= 5, "a colour per sample");
        Cli numeric = Cli.run("plot", "pca", analysed.toString(), "-o", dir.resolve("pca-counts.png").toString(),
                "--color", "total_counts");
        assertEquals(0, numeric.exitCode(), numeric.err());
    }

    @ParameterizedTest
    @CsvSource({
        "qc,  'no obs column total_counts, n_genes_by_counts', scflux qc",
        "hvg, 'no var column means, highly_variable',          scflux hvg",
        "pca, no obsm X_pca,                                   scflux pca"})
    void aFileWithoutWhatThePlotShowsNamesTheKeyAndTheCommand(String kind, String key, String command) {
        Path raw = Cli.FIXTURES.resolve("synth-3k-b.h5ad");
        Cli cli = Cli.run("plot", kind, raw.toString(), "-o", dir.resolve("never.png").toString());
        assertEquals(1, cli.exitCode());
        assertTrue(cli.err().startsWith("scflux: error: " + raw + ": " + key), cli.err());
        assertTrue(cli.err().contains("run " + command + " on it first"), cli.err());
        assertFalse(Files.exists(dir.resolve("never.png")));
    }

    @Test
    void anUnknownColourColumnListsTheColumns() {
        Cli cli = Cli.run("plot", "pca", analysed.toString(), "-o", dir.resolve("never.png").toString(),
                "--color", "nope");
        assertEquals(1, cli.exitCode());
        assertTrue(cli.err().contains("no obs column nope to colour by (columns: sample, cell_type, batch"),
                cli.err());
    }

    @Test
    void anUnknownKindIsAUsageError() {
        Cli cli = Cli.run("plot", "tsne", analysed.toString(), "-o", dir.resolve("never.png").toString());
        assertEquals(2, cli.exitCode());
        assertTrue(cli.err().contains("unknown plot tsne (known: qc, hvg, pca)"), cli.err());
    }

    static BufferedImage decode(byte[] png) throws IOException {
        assertArrayEquals(PNG_SIGNATURE, Arrays.copyOf(png, PNG_SIGNATURE.length), "PNG signature");
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
        assertTrue(image != null, "ImageIO decodes it");
        return image;
    }

    /**
     * Hues of the image's coloured pixels (greys left out: background, grid, text) in buckets of 15 degrees, counting
     * those that fill at least {@code min} pixels: a point colour and its antialiased blends with white share a hue.
     */
    static int hues(BufferedImage image, int min) {
        int[] counts = new int[24];
        float[] hsb = new float[3];
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int rgb = image.getRGB(x, y);
                int r = (rgb >> 16) & 0xff;
                int g = (rgb >> 8) & 0xff;
                int b = rgb & 0xff;
                if (Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 60) {
                    Color.RGBtoHSB(r, g, b, hsb);
                    counts[Math.min(23, (int) (hsb[0] * 24))]++;
                }
            }
        }
        return (int) Arrays.stream(counts).filter(c -> c >= min).count();
    }

    /** The number of distinct colours of the image's pixels. */
    static long colours(BufferedImage image) {
        return Arrays.stream(image.getRGB(0, 0, image.getWidth(), image.getHeight(), null, 0, image.getWidth()))
                .distinct().count();
    }
}
