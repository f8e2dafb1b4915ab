/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.plot;

import io.scflux.core.BlockSource;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import io.scflux.core.anndata.MissingColumnException;
import io.scflux.ops.markers.RankGenesGroups;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;
import org.jspecify.annotations.Nullable;
import org.knowm.xchart.Histogram;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The plots of {@code scflux plot} and the service's results page, drawn with XChart into a PNG from an output's
 * annotations only (obs, var, obsm, uns; never X): QC distributions, HVG dispersion against mean, the PCA scatter,
 * each group's marker genes.
 * Axes tick at round numbers (1, 2 or 5 times a power of ten).
 */
public enum Plot {
    /** Histograms of total counts, genes per cell and, when the file has it, percent mitochondrial counts. */
    QC("qc") {
        @Override
        public @Nullable String missing(AnnData data) {
            return missingColumns(data.obs(), "obs", List.of("total_counts", "n_genes_by_counts"));
        }

        @Override
        byte[] draw(AnnData data, PlotOptions options) {
            List<String> names = data.obs().has("pct_counts_mt")
                    ? List.of("total_counts", "n_genes_by_counts", "pct_counts_mt")
                    : List.of("total_counts", "n_genes_by_counts");
            return encode(
                    List.of(names.stream()
                            .map(n -> histogram(
                                    n, NumericColumns.numbers(data.obs().column(n), "obs column " + n)))
                            .map(chart -> new Panel(chart::paint, 420))
                            .toList()),
                    320);
        }
    },
    /**
     * scanpy's {@code pl.highly_variable_genes}: normalized and raw dispersions (variances for seurat_v3) against
     * mean expression, highly variable genes in colour, the flavour in the title and, for seurat_v3, whose means are
     * of counts, a log mean axis. Genes far beyond the bulk are drawn at the edge of a {@link AxisRange#robust} range.
     */
    HVG("hvg") {
        @Override
        public @Nullable String missing(AnnData data) {
            String absent = missingColumns(data.var(), "var", List.of("means", "highly_variable"));
            if (absent != null) {
                return absent;
            }
            String flavor = flavor(data);
            return dispersions(data.var(), flavor).isEmpty()
                    ? "no var column " + dispersionNames(flavor).get(0)
                    : null;
        }

        @Override
        byte[] draw(AnnData data, PlotOptions options) {
            return encode(
                    List.of(hvgCharts(data).stream()
                            .map(chart -> new Panel(chart::paint, 600))
                            .toList()),
                    480);
        }
    },
    /** The first two principal components of {@code obsm["X_pca"]}, coloured by an obs column when one is named. */
    PCA("pca") {
        @Override
        public @Nullable String missing(AnnData data) {
            return missingEmbedding(data, "X_pca", "components");
        }

        @Override
        byte[] draw(AnnData data, PlotOptions options) {
            return embedding(data, "X_pca", "PCA", "PC", options);
        }
    },
    /** scanpy's {@code pl.umap}: {@code obsm["X_umap"]}, coloured by an obs column (leiden's clusters) when named. */
    UMAP("umap") {
        @Override
        public @Nullable String missing(AnnData data) {
            return missingEmbedding(data, "X_umap", "dimensions");
        }

        @Override
        byte[] draw(AnnData data, PlotOptions options) {
            return embedding(data, "X_umap", "UMAP", "UMAP", options);
        }
    },
    /**
     * scanpy's {@code pl.rank_genes_groups}: each group's best genes by score against their rank, the gene names
     * upright above their scores, "GROUP vs. REFERENCE" above each panel, four panels to a row on one score axis.
     */
    RANK_GENES_GROUPS("rank-genes-groups", RankGenesGroups.KEY) {
        @Override
        public @Nullable String missing(AnnData data) {
            return MarkerPlot.missing(data);
        }

        @Override
        byte[] draw(AnnData data, PlotOptions options) {
            MarkerPlot plot = MarkerPlot.of(data, options.nGenes());
            List<List<Panel>> rows = new ArrayList<>();
            for (int i = 0; i < plot.groups().size(); i++) {
                if (i % MarkerPlot.COLUMNS == 0) {
                    rows.add(new ArrayList<>());
                }
                int group = i;
                rows.get(rows.size() - 1)
                        .add(new Panel((g, width, height) -> plot.paint(g, group, width, height), MARKER_PANEL));
            }
            return encode(rows, MARKER_PANEL);
        }
    };

    /** Why obsm {@code key} cannot be drawn as a two-dimensional scatter, or null when it can. */
    private static @Nullable String missingEmbedding(AnnData data, String key, String what) {
        Object stored = data.obsm().get(key);
        if (stored == null) {
            return "no obsm " + key;
        }
        long cols = stored instanceof DenseArray a && a.ndim() == 2
                ? a.shape()[1]
                : stored instanceof BlockSource s ? s.nCols() : 0;
        return cols < 2 ? "obsm " + key + " has fewer than two " + what : null;
    }

    /**
     * The first two columns of obsm {@code key} as a scatter, as scanpy's {@code pl.embedding} draws them: one colour
     * per category of {@code --color} with a legend, or a numeric column in viridis with a colour bar.
     */
    private static byte[] embedding(AnnData data, String key, String title, String axis, PlotOptions options) {
        String color = options.color();
        Object stored = Objects.requireNonNull(data.obsm().get(key), "missing() found obsm " + key);
        DenseArray points = stored instanceof BlockSource s ? DenseArray.materialize(s) : (DenseArray) stored;
        int n = (int) points.shape()[0];
        int k = (int) points.shape()[1];
        double[] first = new double[n];
        double[] second = new double[n];
        for (int i = 0; i < n; i++) {
            first[i] = points.getDouble(i * k);
            second[i] = points.getDouble(i * k + 1);
        }
        Groups groups =
                color == null ? Groups.all(n) : Groups.of(color, data.obs().column(color));
        XYChart chart = scatter(color == null ? title : title + " coloured by " + color, axis + "1", axis + "2");
        groups.addTo(chart, first, second, AxisRange.ALL);
        ColourBar bar = groups.bar();
        if (bar == null) {
            return encode(List.of(List.of(new Panel(chart::paint, 720))), 560);
        }
        chart.getStyler().setLegendVisible(false);
        double[] finite = Arrays.stream(second).filter(Double::isFinite).toArray();
        double low = Arrays.stream(finite).min().orElse(0);
        double high = Arrays.stream(finite).max().orElse(0);
        Font font = chart.getStyler().getAxisTickLabelsFont();
        // painted after the chart, so that the bar spans the height of its points
        return encode(
                List.of(List.of(
                        new Panel(chart::paint, 600),
                        new Panel(
                                (g, width, height) -> bar.paint(
                                        g,
                                        width,
                                        height,
                                        (int) chart.getScreenYFromChart(high),
                                        (int) chart.getScreenYFromChart(low),
                                        font),
                                120))),
                560);
    }

    /** Axis labels: thousands grouped, at most three decimals. */
    private static final String SEURAT_V3 = "seurat_v3";
    /** A rank_genes_groups panel's width and height in pixels. */
    private static final int MARKER_PANEL = 320;

    private final String wireName;
    private final String step;

    Plot(String wireName) {
        this(wireName, wireName);
    }

    Plot(String wireName, String step) {
        this.wireName = wireName;
        this.step = step;
    }

    /**
     * {@code qc}, {@code hvg}, {@code pca} or {@code rank-genes-groups}: the name of the CLI argument and of the
     * service's image, and also the command that writes what the plot shows.
     */
    public String wireName() {
        return wireName;
    }

    /** The service's job step that writes what the plot shows ({@code rank_genes_groups}: scanpy's spelling). */
    public String step() {
        return step;
    }

    /** What this plot needs that {@code data} lacks (one line), or null when it can be drawn. */
    public abstract @Nullable String missing(AnnData data);

    abstract byte[] draw(AnnData data, PlotOptions options);

    /**
     * This plot of {@code data}, read from {@code file}, as PNG bytes, drawn as {@code options} say. What is missing
     * fails with the file, the key and the command that adds it; an unknown colour column is a
     * {@link MissingColumnException} listing obs's columns.
     */
    public byte[] png(AnnData data, String file, PlotOptions options) {
        String color = options.color();
        String absent = missing(data);
        if (absent != null) {
            throw new IllegalArgumentException(file + ": " + absent + ", which " + wireName + " plots need: run "
                    + "scflux " + wireName + " on it first (in a service job: the " + step + " step)");
        }
        if (color != null && !data.obs().has(color)) {
            throw new MissingColumnException(file + ": no obs column " + color + " to colour by (columns: "
                    + String.join(", ", data.obs().columns().keySet()) + ")");
        }
        return draw(data, options);
    }

    /** The plot named {@code name}, or an IllegalArgumentException listing the names. */
    public static Plot of(String name) {
        for (Plot p : values()) {
            if (p.wireName.equals(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown plot " + name + " (known: "
                + Arrays.stream(values()).map(Plot::wireName).collect(Collectors.joining(", ")) + ")");
    }

    private static @Nullable String missingColumns(Frame frame, String where, List<String> names) {
        List<String> absent = names.stream().filter(n -> !frame.has(n)).toList();
        return absent.isEmpty() ? null : "no " + where + " column " + String.join(", ", absent);
    }

    /**
     * The flavour {@code hvg} ranked genes by: {@code uns["hvg"]["flavor"]} as scanpy writes it, else seurat_v3 when
     * var has its {@code variances_norm}, else null (seurat or cell_ranger, which write the same columns).
     */
    private static @Nullable String flavor(AnnData data) {
        if (data.uns().get("hvg") instanceof Map<?, ?> hvg
                && hvg.get("flavor") instanceof DenseArray flavor
                && flavor.size() == 1) {
            return String.valueOf(flavor.get(0));
        }
        return data.var().has("variances_norm") ? SEURAT_V3 : null;
    }

    /** The columns HVG of {@code flavor} writes that its plot shows, normalized first, as scanpy's two panels. */
    private static List<String> dispersionNames(@Nullable String flavor) {
        return SEURAT_V3.equals(flavor)
                ? List.of("variances_norm", "variances")
                : List.of("dispersions_norm", "dispersions");
    }

    /** Those of {@link #dispersionNames} that {@code var} has. */
    private static List<String> dispersions(Frame var, @Nullable String flavor) {
        return dispersionNames(flavor).stream().filter(var::has).toList();
    }

    /**
     * The obs column the PCA is coloured by when none is named: the first categorical one that {@link Groups} can
     * colour (a sample, a cell type, a cluster), or null when obs has none.
     */
    public static @Nullable String defaultColour(Frame obs) {
        return obs.columns().entrySet().stream()
                .filter(c -> c.getValue() instanceof CategoricalColumn && Groups.canColour(c.getValue()))
                .map(Map.Entry::getKey)
                .findFirst()
                .orElse(null);
    }

    /** The panels of the HVG plot of {@code data}, which {@link #missing} found complete: normalized first. */
    static List<XYChart> hvgCharts(AnnData data) {
        Frame var = data.var();
        String flavor = flavor(data);
        boolean logMean = SEURAT_V3.equals(flavor);
        double[] mean = NumericColumns.numbers(var.column("means"), "var column means");
        int unplaced = 0;
        if (logMean) {
            for (int i = 0; i < mean.length; i++) {
                if (!(mean[i] > 0)) {
                    unplaced += Double.isNaN(mean[i]) ? 0 : 1;
                    mean[i] = Double.NaN;
                }
            }
        }
        String x = "mean expression"
                + (!logMean
                        ? ""
                        : unplaced == 0
                                ? " (log scale)"
                                : " (log scale; " + unplaced + (unplaced == 1 ? " gene" : " genes")
                                        + " of mean 0 left out)");
        Groups groups = Groups.flags(var.column("highly_variable"), "highly variable genes", "other genes");
        List<XYChart> charts = new ArrayList<>();
        for (String y : dispersions(var, flavor)) {
            double[] values = NumericColumns.numbers(var.column(y), "var column " + y);
            for (int i = 0; i < values.length; i++) {
                values[i] = Double.isNaN(mean[i]) ? Double.NaN : values[i];
            }
            AxisRange range = AxisRange.robust(values);
            XYChart chart = scatter(
                    "Highly variable genes" + (flavor == null ? "" : " (" + flavor + ")")
                            + (y.endsWith("_norm") ? "" : ", not normalized"),
                    x,
                    y);
            chart.getStyler().setXAxisLogarithmic(logMean);
            chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
            if (range.limits()) {
                chart.getStyler().setYAxisMin(range.lo());
                chart.getStyler().setYAxisMax(range.hi());
            }
            groups.addTo(chart, mean, values, range);
            charts.add(chart);
        }
        return charts;
    }

    /**
     * The obs columns of {@code obs} that can colour a plot ({@code color}): numeric ones, and those of at most
     * {@link Groups#MAX_CATEGORIES} distinct values.
     */
    public static List<String> colourable(Frame obs) {
        return obs.columns().entrySet().stream()
                .filter(c -> Groups.canColour(c.getValue()))
                .map(Map.Entry::getKey)
                .toList();
    }

    /**
     * A step outline of the counts of {@code values} in 40 equal bins (XChart's {@link Histogram}), NaN left out (the
     * binning would count it in the first bin), with the mean in the title and as a dashed line.
     */
    static XYChart histogram(String name, double[] values) {
        final int bins = 40;
        List<Double> kept =
                Arrays.stream(values).filter(v -> !Double.isNaN(v)).boxed().toList();
        DoubleSummaryStatistics stats =
                kept.stream().mapToDouble(Double::doubleValue).summaryStatistics();
        XYChart chart = Charts.chart(
                String.format(Locale.ROOT, "%s (mean %.4g)", name, kept.isEmpty() ? Double.NaN : stats.getAverage()),
                name,
                "cells");
        chart.getStyler().setLegendVisible(false);
        if (kept.isEmpty()) {
            return chart;
        }
        double min = stats.getMin();
        double max = stats.getMax() > min ? stats.getMax() : min + 1;
        List<Double> counts = new Histogram(kept, bins, min, max).getyAxisData();
        // Added first, the mean's x keeps XChart from ticking at every k-th bin edge (as it does for x values
        // equally spaced from the first one, which gave ticks like 709.5): its ticks are then round numbers.
        XYSeries mean = chart.addSeries("mean", new double[] {stats.getAverage(), stats.getAverage()}, new double[] {
            0, counts.stream().mapToDouble(Double::doubleValue).max().orElse(0)
        });
        mean.setMarker(SeriesMarkers.NONE);
        mean.setLineColor(new Color(0x555555));
        mean.setLineStyle(SeriesLines.DASH_DASH);
        double width = (max - min) / bins;
        double[] x = new double[2 * bins + 2];
        double[] y = new double[2 * bins + 2];
        x[0] = min;
        for (int b = 0; b < bins; b++) {
            x[2 * b + 1] = min + b * width;
            x[2 * b + 2] = min + (b + 1) * width;
            y[2 * b + 1] = counts.get(b);
            y[2 * b + 2] = counts.get(b);
        }
        x[2 * bins + 1] = x[2 * bins];
        XYSeries series = chart.addSeries(name, x, y);
        series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Area);
        series.setMarker(SeriesMarkers.NONE);
        series.setLineColor(new Color(0x1f77b4));
        series.setFillColor(new Color(0x801f77b4, true));
        return chart;
    }

    private static XYChart scatter(String title, String x, String y) {
        XYChart chart = Charts.chart(title, x, y);
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        chart.getStyler().setMarkerSize(4);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        return chart;
    }

    /**
     * Rows of panels, one under the other, each row's panels side by side, each as wide as it says and {@code height}
     * high, as one PNG on a white ground.
     */
    private static byte[] encode(List<List<Panel>> rows, int height) {
        int width = rows.stream()
                .mapToInt(row -> row.stream().mapToInt(Panel::width).sum())
                .max()
                .orElse(0);
        BufferedImage image = new BufferedImage(width, height * rows.size(), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, image.getWidth(), image.getHeight());
            for (int r = 0; r < rows.size(); r++) {
                int left = 0;
                for (Panel p : rows.get(r)) {
                    Graphics2D panel = (Graphics2D) g.create(left, r * height, p.width(), height);
                    p.painter().paint(panel, p.width(), height);
                    panel.dispose();
                    left += p.width();
                }
            }
        } finally {
            g.dispose();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** What paints a part of the image: a chart (XChart's {@code paint}) or a colour bar. */
    private interface Painter {
        void paint(Graphics2D g, int width, int height);
    }

    /** A part of the image, {@code width} pixels wide. */
    private record Panel(Painter painter, int width) {}
}
