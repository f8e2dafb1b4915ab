/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.plot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.DType;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import io.scflux.core.anndata.RecordArray;
import io.scflux.samples.test.Images;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.lang.reflect.Field;
import java.math.BigDecimal;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.AxisPair;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * What a biologist reads off the plots: a numeric colour on matplotlib's viridis with a colour bar, axes ticking at
 * round numbers, the HVG plot keeping the bulk of the genes readable past a far-off gene and naming its flavour, and
 * the PCA coloured by the first categorical column by default. Data are made here, their expected look reasoned out
 * beside them; viridis' colours are those of matplotlib's table ({@code _cm_listed._viridis_data}, rounded to bytes).
 */
class PlotTest {

    /** Entries {@code i} of matplotlib's 256-colour viridis, which it draws for values at {@code i / 255}. */
    @ParameterizedTest
    @CsvSource({
        "0, 440154",
        "40, 453781",
        "64, 3b528b",
        "100, 2a768e",
        "128, 21918c",
        "170, 35b779",
        "191, 5cc863",
        "230, bddf26",
        "255, fde725"
    })
    void viridisIsMatplotlibs(int entry, String hex) {
        Color expected = new Color(Integer.parseInt(hex, 16));
        Color actual = Viridis.at(entry / 255.0);
        assertTrue(distance(expected, actual) <= 5, "entry " + entry + ": " + actual + " for " + expected);
    }

    @Test
    void viridisKeepsToItsEnds() {
        assertEquals(new Color(0x440154), Viridis.at(-3));
        assertEquals(new Color(0xfde725), Viridis.at(7));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = ';',
            value = {
                "225; 3455; 6; 500|1,000|1,500|2,000|2,500|3,000",
                "0.916; 27.4; 6; 5|10|15|20|25",
                "-0.013; 0.042; 6; -0.01|0.00|0.01|0.02|0.03|0.04",
                "0; 1; 6; 0.0|0.2|0.4|0.6|0.8|1.0",
                "3; 3; 6; 3"
            })
    void ticksFallOnRoundNumbers(double lo, double hi, int most, String labels) {
        Ticks ticks = Ticks.between(lo, hi, most);
        List<String> actual = new ArrayList<>();
        for (int i = 0; i < ticks.values().length; i++) {
            actual.add(ticks.label(i));
        }
        assertEquals(List.of(labels.split("\\|")), actual);
    }

    /**
     * A histogram of values from 225 to 3455 (the fixture's total_counts range): its 40 bins are 80.75 wide, and
     * XChart, given equally spaced x values only, ticked at every sixth edge (225, 709.5, 1,194, ...).
     */
    @Test
    void histogramAxesTickAtRoundNumbers() throws ParseException {
        double[] values = new double[1000];
        for (int i = 0; i < values.length; i++) {
            values[i] = 225 + 3230 * Math.pow(i / 999.0, 2);
        }
        XYChart chart = Plot.histogram("total_counts", values);
        paint(chart, 420, 320);
        assertRound(tickLabels(chart, "getXAxis"));
        assertRound(tickLabels(chart, "getYAxis"));
    }

    /**
     * 200 genes of normalized dispersion between -2 and 2 and one at 1000: the y axis keeps to the bulk (up to one
     * bulk spread beyond it, 6), the far gene drawn at its top edge in a series of its own, every point within.
     */
    @Test
    void hvgDrawsAFarOffGeneAtTheAxisEdge() throws ParseException {
        int n = 201;
        double[] means = new double[n];
        double[] norm = new double[n];
        double[] raw = new double[n];
        boolean[] hv = new boolean[n];
        for (int i = 0; i < n; i++) {
            means[i] = 0.01 + i * 0.015;
            norm[i] = -2 + 4.0 * i / (n - 1);
            raw[i] = 0.5 + 0.001 * i;
            hv[i] = norm[i] > 0.5;
        }
        norm[17] = 1000;
        hv[17] = true;
        AnnData data = genes(means, hv, Map.of("dispersions_norm", norm, "dispersions", raw), "cell_ranger");
        List<XYChart> charts = Plot.hvgCharts(data);
        assertEquals(2, charts.size(), "normalized and raw, as scanpy's two panels");
        XYChart normalized = charts.get(0);
        assertEquals("Highly variable genes (cell_ranger)", normalized.getTitle());
        assertEquals(
                "Highly variable genes (cell_ranger), not normalized",
                charts.get(1).getTitle());
        double top = normalized.getStyler().getYAxisMax();
        assertTrue(top >= 2 && top <= 6, "the axis keeps to the bulk: " + top);
        XYSeries beyond = normalized.getSeriesMap().get("highly variable genes above the axis (1)");
        assertArrayEquals(new double[] {top}, beyond.getYData(), "drawn at the top edge");
        assertArrayEquals(new double[] {means[17]}, beyond.getXData(), "where its mean is");
        int drawn = 0;
        for (XYSeries series : normalized.getSeriesMap().values()) {
            for (double y : series.getYData()) {
                assertTrue(y >= normalized.getStyler().getYAxisMin() && y <= top, series.getName() + ": " + y);
                drawn++;
            }
        }
        assertEquals(n, drawn, "every gene drawn once");
        assertNull(charts.get(1).getStyler().getYAxisMax(), "nothing far off: the raw axis is XChart's own");
        paint(normalized, 600, 480);
        assertRound(tickLabels(normalized, "getXAxis"));
        assertRound(tickLabels(normalized, "getYAxis"));
    }

    /** seurat_v3's means are of counts: scanpy draws them on a log axis; a gene of mean 0 has no place on it. */
    @Test
    void seuratV3HasALogMeanAxis() {
        double[] means = {0, 0.02, 0.5, 3, 40};
        boolean[] hv = {false, false, true, true, true};
        AnnData data = genes(
                means,
                hv,
                Map.of("variances_norm", new double[] {0, 0.9, 1.4, 2.1, 1.2}, "variances", new double[] {
                    0, 0.02, 0.9, 8, 70
                }),
                null);
        List<XYChart> charts = Plot.hvgCharts(data);
        assertEquals(2, charts.size());
        for (XYChart chart : charts) {
            assertTrue(chart.getStyler().isXAxisLogarithmic());
            assertTrue(chart.getTitle().startsWith("Highly variable genes (seurat_v3)"), chart.getTitle());
            assertEquals("mean expression (log scale; 1 gene of mean 0 left out)", chart.getXAxisTitle());
            paint(chart, 600, 480);
        }
        assertEquals("variances_norm", charts.get(0).getYAxisTitle());
        AnnData seurat = genes(means, hv, Map.of("dispersions_norm", new double[] {0, 0.9, 1.4, 2.1, 1.2}), "seurat");
        assertFalse(Plot.hvgCharts(seurat).get(0).getStyler().isXAxisLogarithmic());
    }

    /**
     * Three clusters of cells along PC1 whose score is 0, 50 and 100: the lowest are drawn in viridis' purple, the
     * middle ones in its teal (#21918c; eight bins gave #1fa187), the highest in its yellow, left to right; beside the
     * plot a bar runs from the purple at its bottom to the yellow at its top.
     */
    @Test
    void aNumericColourIsViridisWithAColourBar() throws Exception {
        int perCluster = 60;
        int n = 3 * perCluster;
        double[] pca = new double[2 * n];
        double[] score = new double[n];
        for (int i = 0; i < n; i++) {
            int cluster = i / perCluster;
            pca[2 * i] = 5 * cluster + 0.5 * Math.sin(i);
            pca[2 * i + 1] = 2 * Math.cos(1.7 * i);
            score[i] = 50 * cluster;
        }
        Frame obs = Frame.ofRange(n).put("score", ArrayColumn.of(score));
        AnnData data = new AnnData(null, obs, Frame.ofRange(3));
        data.putObsm("X_pca", DenseArray.of(DType.FLOAT64, pca, n, 2));
        BufferedImage image = Images.decode(Plot.PCA.png(data, "cells.h5ad", PlotOptions.DEFAULT.withColor("score")));

        Color low = new Color(0x440154);
        Color middle = new Color(0x21918c);
        Color high = new Color(0xfde725);
        int plotRight = image.getWidth() - 120;
        double lowX = meanX(image, 0, plotRight, low);
        double middleX = meanX(image, 0, plotRight, middle);
        double highX = meanX(image, 0, plotRight, high);
        assertTrue(lowX < middleX && middleX < highX, lowX + " < " + middleX + " < " + highX);

        // the bar: the column right of the plot with the most viridis pixels, purple at its foot, yellow at its head
        int barX = -1;
        int most = 0;
        for (int x = plotRight; x < image.getWidth(); x++) {
            int count = 0;
            for (int y = 0; y < image.getHeight(); y++) {
                count += isViridis(new Color(image.getRGB(x, y))) ? 1 : 0;
            }
            if (count > most) {
                most = count;
                barX = x;
            }
        }
        assertTrue(most > 200, "a colour bar of " + most + " pixels");
        List<Color> bar = new ArrayList<>();
        for (int y = 0; y < image.getHeight(); y++) {
            Color c = new Color(image.getRGB(barX, y));
            if (isViridis(c)) {
                bar.add(c);
            }
        }
        assertTrue(distance(high, bar.get(0)) <= 6, "yellow at the top: " + bar.get(0));
        assertTrue(distance(low, bar.get(bar.size() - 1)) <= 6, "purple at the foot: " + bar.get(bar.size() - 1));
    }

    /**
     * The UMAP as sc.pl.umap(color="leiden") draws it: three clusters of points left, middle and right, each in its
     * category's colour of matplotlib's tab10 (#1f77b4, #ff7f0e, #2ca02c) from left to right; without obsm X_umap
     * the plot says what is missing.
     */
    @Test
    void theUmapIsColouredByItsClusters() throws Exception {
        int perCluster = 50;
        int n = 3 * perCluster;
        float[] umap = new float[2 * n];
        String[] leiden = new String[n];
        for (int i = 0; i < n; i++) {
            int cluster = i / perCluster;
            umap[2 * i] = (float) (10 * cluster + Math.sin(i));
            umap[2 * i + 1] = (float) Math.cos(1.3 * i);
            leiden[i] = Integer.toString(cluster);
        }
        AnnData data = new AnnData(
                null, Frame.ofRange(n).put("leiden", CategoricalColumn.fromValues(leiden)), Frame.ofRange(3));
        assertEquals("no obsm X_umap", Plot.UMAP.missing(data));
        data.putObsm("X_umap", DenseArray.of(DType.FLOAT32, umap, n, 2));
        assertNull(Plot.UMAP.missing(data));
        BufferedImage image = Images.decode(Plot.UMAP.png(data, "cells.h5ad", PlotOptions.DEFAULT.withColor("leiden")));
        int plotRight = image.getWidth() - 140; // the legend is beside the plot
        double first = meanX(image, 0, plotRight, new Color(0x1f77b4));
        double second = meanX(image, 0, plotRight, new Color(0xff7f0e));
        double third = meanX(image, 0, plotRight, new Color(0x2ca02c));
        assertTrue(first < second && second < third, first + " < " + second + " < " + third);
    }

    /**
     * sample is obs' first categorical column that can be coloured: before it, numbers and plain strings do not
     * count, nor 30 categories, more than colours tell apart.
     */
    @Test
    void thePcaIsColouredByTheFirstCategoricalColumnByDefault() {
        String[] strings = {"a", "b", "a", "c"};
        Frame obs = Frame.ofRange(4)
                .put("total_counts", ArrayColumn.of(new double[] {1, 2, 3, 4}))
                .put("batch", ArrayColumn.of(strings))
                .put(
                        "barcode_group",
                        new CategoricalColumn(
                                DenseArray.of(IntStream.range(0, 30)
                                        .mapToObj(i -> "group " + i)
                                        .toArray(String[]::new)),
                                new int[] {0, 7, 12, 29},
                                false,
                                DType.INT8))
                .put("sample", CategoricalColumn.fromValues(strings))
                .put("cell_type", CategoricalColumn.fromValues(new String[] {"T", "B", "T", "NK"}));
        assertEquals("sample", Plot.defaultColour(obs));
        assertNull(Plot.defaultColour(Frame.ofRange(4).put("total_counts", ArrayColumn.of(new double[] {1, 2, 3, 4}))));
    }

    /**
     * Five groups of 30 genes, group k's scores 10 + k - 0.3 i at rank i, as a file holds them (reference a scalar):
     * 20 genes a panel by default, titled "A vs. rest"; one score axis for all from the lowest score shown (group A's
     * 20th, 4.3) to the highest (group E's first, 14) plus 30 % of that range for the names; four panels to a row, so
     * the second row has one panel and three white cells.
     */
    @Test
    void rankGenesGroupsSharesOneScoreAxisWithRoomForTheNames() throws Exception {
        int genes = 30;
        Map<String, DenseArray> names = new LinkedHashMap<>();
        Map<String, DenseArray> scores = new LinkedHashMap<>();
        for (int k = 0; k < 5; k++) {
            String group = String.valueOf((char) ('A' + k));
            int offset = k;
            names.put(
                    group,
                    DenseArray.of(IntStream.range(0, genes)
                            .mapToObj(i -> "G" + (i * 7 + offset) % genes)
                            .toArray(String[]::new)));
            scores.put(
                    group,
                    DenseArray.of(
                            DType.FLOAT64,
                            IntStream.range(0, genes)
                                    .mapToDouble(i -> 10 + offset - 0.3 * i)
                                    .toArray(),
                            genes));
        }
        Map<String, Object> results = new LinkedHashMap<>();
        results.put("params", new LinkedHashMap<>(Map.of("reference", DenseArray.scalar("rest"))));
        results.put("names", RecordArray.of(names));
        results.put("scores", RecordArray.of(scores));
        AnnData data = new AnnData(null, Frame.ofRange(2), Frame.ofRange(genes));
        assertEquals("no uns rank_genes_groups", Plot.RANK_GENES_GROUPS.missing(data));
        data.uns().put("rank_genes_groups", results);
        assertNull(Plot.RANK_GENES_GROUPS.missing(data));

        MarkerPlot plot = MarkerPlot.of(data, PlotOptions.DEFAULT.nGenes());
        assertEquals(5, plot.groups().size());
        assertEquals("A vs. rest", plot.title(0));
        assertEquals("E vs. rest", plot.title(4));
        for (int k = 0; k < 5; k++) {
            assertArrayEquals(
                    Arrays.copyOf(names.get(plot.groups().get(k).name()).strings(), 20),
                    plot.groups().get(k).genes());
        }
        double lo = 10 - 0.3 * 19;
        double hi = 14;
        assertEquals(lo, plot.lo(), 1e-12);
        assertEquals(hi + 0.3 * (hi - lo), plot.hi(), 1e-12);

        BufferedImage image = Images.decode(Plot.RANK_GENES_GROUPS.png(data, "markers.h5ad", PlotOptions.DEFAULT));
        assertEquals(4 * 320, image.getWidth());
        assertEquals(2 * 320, image.getHeight());
        for (int x = 320; x < image.getWidth(); x++) {
            for (int y = 320; y < image.getHeight(); y++) {
                assertEquals(Color.WHITE.getRGB(), image.getRGB(x, y), "empty cell at " + x + ", " + y);
            }
        }
        assertTrue(Images.colours(image.getSubimage(320, 320, 320, 320)) == 1, "nothing past the last panel");
        assertTrue(Images.colours(image.getSubimage(0, 320, 320, 320)) > 1, "group E's panel drawn");
    }

    /** Results a hostile file holds: scores that are strings, or fewer scores than names, are said or drawn. */
    @Test
    void rankGenesGroupsOfAnOddFileIsAClearLineOrAShorterPanel() throws Exception {
        Map<String, Object> results = new LinkedHashMap<>();
        results.put("names", RecordArray.of(Map.of("A", DenseArray.of(new String[] {"G1", "G2", "G3"}))));
        results.put("scores", RecordArray.of(Map.of("A", DenseArray.of(new String[] {"x", "y", "z"}))));
        AnnData data = new AnnData(null, Frame.ofRange(2), Frame.ofRange(3));
        data.uns().put("rank_genes_groups", results);
        assertEquals("no numeric scores of group A in uns rank_genes_groups", Plot.RANK_GENES_GROUPS.missing(data));
        results.put("scores", RecordArray.of(Map.of("A", DenseArray.of(DType.FLOAT64, new double[] {3, 2}, 2))));
        assertNull(Plot.RANK_GENES_GROUPS.missing(data));
        MarkerPlot plot = MarkerPlot.of(data, 20);
        assertArrayEquals(new String[] {"G1", "G2"}, plot.groups().get(0).genes());
        assertEquals(
                320,
                Images.decode(Plot.RANK_GENES_GROUPS.png(data, "odd.h5ad", PlotOptions.DEFAULT))
                        .getWidth());
    }

    private static AnnData genes(double[] means, boolean[] hv, Map<String, double[]> columns, String flavor) {
        Frame var = Frame.ofRange(means.length)
                .put("means", ArrayColumn.of(means))
                .put("highly_variable", ArrayColumn.of(hv));
        columns.forEach((name, values) -> var.put(name, ArrayColumn.of(values)));
        AnnData data = new AnnData(null, Frame.ofRange(2), var);
        if (flavor != null) {
            Map<String, Object> hvg = new LinkedHashMap<>();
            hvg.put("flavor", DenseArray.scalar(flavor));
            data.uns().put("hvg", hvg);
        }
        return data;
    }

    private static void paint(XYChart chart, int width, int height) {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        chart.paint(g, width, height);
        g.dispose();
    }

    /** The tick labels XChart drew on an axis ({@code getXAxis} or {@code getYAxis} of its axis pair). */
    private static List<String> tickLabels(XYChart chart, String axis) {
        try {
            Field pair = Chart.class.getDeclaredField("axisPair");
            pair.setAccessible(true);
            AxisPair<?, ?> axes = (AxisPair<?, ?>) pair.get(chart);
            var getter = AxisPair.class.getDeclaredMethod(axis);
            getter.setAccessible(true);
            var calculator =
                    ((org.knowm.xchart.internal.chartpart.Axis<?, ?>) getter.invoke(axes)).getAxisTickCalculator();
            return calculator.getTickLabels();
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("XChart " + axis + " tick labels are not where this test reads them", e);
        }
    }

    /** Labels equally spaced by 1, 2 or 5 times a power of ten, each a multiple of that step. */
    private static void assertRound(List<String> labels) throws ParseException {
        assertTrue(labels.size() >= 3, "ticks " + labels);
        DecimalFormat format = new DecimalFormat("#,##0.###", DecimalFormatSymbols.getInstance(Locale.ROOT));
        format.setParseBigDecimal(true);
        List<BigDecimal> values = new ArrayList<>();
        for (String label : labels) {
            values.add((BigDecimal) format.parse(label));
        }
        BigDecimal step = values.get(1).subtract(values.get(0));
        BigDecimal unscaled = new BigDecimal(step.unscaledValue()).stripTrailingZeros();
        String digits = unscaled.toPlainString().replace("-", "");
        assertTrue(List.of("1", "2", "5").contains(digits.replaceAll("0+$", "")), "step " + step + " of " + labels);
        for (int i = 0; i < values.size(); i++) {
            assertEquals(0, values.get(i).remainder(step).signum(), labels.get(i) + " in " + labels);
            if (i > 0) {
                assertEquals(0, values.get(i).subtract(values.get(i - 1)).compareTo(step), "spacing of " + labels);
            }
        }
    }

    private static double meanX(BufferedImage image, int from, int to, Color colour) {
        long sum = 0;
        int count = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = from; x < to; x++) {
                if (distance(colour, new Color(image.getRGB(x, y))) <= 8) {
                    sum += x;
                    count++;
                }
            }
        }
        assertTrue(count >= 20, count + " pixels of " + colour);
        return (double) sum / count;
    }

    /** Whether {@code c} is within a few units of one of viridis' colours. */
    private static boolean isViridis(Color c) {
        for (int i = 0; i <= 255; i++) {
            if (distance(Viridis.at(i / 255.0), c) <= 3) {
                return true;
            }
        }
        return false;
    }

    private static int distance(Color a, Color b) {
        return Math.max(
                Math.abs(a.getRed() - b.getRed()),
                Math.max(Math.abs(a.getGreen() - b.getGreen()), Math.abs(a.getBlue() - b.getBlue())));
    }
}
