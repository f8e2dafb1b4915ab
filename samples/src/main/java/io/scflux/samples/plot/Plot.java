package io.scflux.samples.plot;

import io.scflux.core.BlockSource;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import io.scflux.core.anndata.MissingColumnException;
import io.scflux.core.anndata.NullableColumn;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;
import org.knowm.xchart.Histogram;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The plots of {@code scflux plot} and the service's results page, drawn with XChart into a PNG from an output's
 * annotations only (obs, var, obsm; never X): QC distributions, HVG dispersion against mean, the PCA scatter.
 */
public enum Plot {
    /** Histograms of total counts, genes per cell and, when the file has it, percent mitochondrial counts. */
    QC("qc") {
        @Override
        public String missing(AnnData data) {
            return missingColumns(data.obs(), "obs", List.of("total_counts", "n_genes_by_counts"));
        }

        @Override
        byte[] draw(AnnData data, String color) {
            List<String> names = data.obs().has("pct_counts_mt")
                    ? List.of("total_counts", "n_genes_by_counts", "pct_counts_mt")
                    : List.of("total_counts", "n_genes_by_counts");
            return encode(names.stream().map(n -> histogram(n, numbers(data.obs().column(n), "obs column " + n)))
                    .toList(), 420, 320);
        }
    },
    /** Dispersion (normalized when the file has it) against mean expression, highly variable genes in colour. */
    HVG("hvg") {
        @Override
        public String missing(AnnData data) {
            String absent = missingColumns(data.var(), "var", List.of("means", "highly_variable"));
            return absent != null ? absent : dispersion(data.var()) == null
                    ? missingColumns(data.var(), "var", List.of("dispersions_norm")) : null;
        }

        @Override
        byte[] draw(AnnData data, String color) {
            Frame var = data.var();
            String y = dispersion(var);
            double[] mean = numbers(var.column("means"), "var column means");
            double[] disp = numbers(var.column(y), "var column " + y);
            Column hv = var.column("highly_variable");
            Groups groups = Groups.flags(hv, "highly variable genes", "other genes");
            XYChart chart = scatter("Highly variable genes", "mean expression", y);
            groups.addTo(chart, mean, disp);
            return encode(List.of(chart), 640, 480);
        }
    },
    /** The first two principal components of {@code obsm["X_pca"]}, coloured by an obs column when one is named. */
    PCA("pca") {
        @Override
        public String missing(AnnData data) {
            Object pca = data.obsm().get("X_pca");
            if (pca == null) {
                return "no obsm X_pca";
            }
            long cols = pca instanceof DenseArray a && a.ndim() == 2 ? a.shape()[1]
                    : pca instanceof BlockSource s ? s.nCols() : 0;
            return cols < 2 ? "obsm X_pca has fewer than two components" : null;
        }

        @Override
        byte[] draw(AnnData data, String color) {
            Object stored = data.obsm().get("X_pca");
            DenseArray pca = stored instanceof BlockSource s ? DenseArray.materialize(s) : (DenseArray) stored;
            int n = (int) pca.shape()[0];
            int k = (int) pca.shape()[1];
            double[] pc1 = new double[n];
            double[] pc2 = new double[n];
            for (int i = 0; i < n; i++) {
                pc1[i] = pca.getDouble(i * k);
                pc2[i] = pca.getDouble(i * k + 1);
            }
            Groups groups = color == null ? Groups.all(n) : Groups.of(color, data.obs().column(color));
            XYChart chart = scatter(color == null ? "PCA" : "PCA coloured by " + color, "PC1", "PC2");
            groups.addTo(chart, pc1, pc2);
            return encode(List.of(chart), 720, 560);
        }
    };

    /** Axis labels: thousands grouped, at most three decimals. */
    static final String NUMBER = "#,##0.###";

    private final String wireName;

    Plot(String wireName) {
        this.wireName = wireName;
    }

    /**
     * {@code qc}, {@code hvg} or {@code pca}: the name of the CLI argument and of the service's image, and also the
     * command (and job step) that writes what the plot shows.
     */
    public String wireName() {
        return wireName;
    }

    /** What this plot needs that {@code data} lacks (one line), or null when it can be drawn. */
    public abstract String missing(AnnData data);

    abstract byte[] draw(AnnData data, String color);

    /**
     * This plot of {@code data}, read from {@code file}, as PNG bytes; {@code color} names the obs column that colours
     * the PCA scatter (null: one colour). What is missing fails with the file, the key and the command that adds it;
     * an unknown colour column is a {@link MissingColumnException} listing obs's columns.
     */
    public byte[] png(AnnData data, String file, String color) {
        String absent = missing(data);
        if (absent != null) {
            throw new IllegalArgumentException(file + ": " + absent + ", which " + wireName + " plots need: run "
                    + "scflux " + wireName + " on it first (in a service job: the " + wireName + " step)");
        }
        if (color != null && !data.obs().has(color)) {
            throw new MissingColumnException(file + ": no obs column " + color + " to colour by (columns: "
                    + String.join(", ", data.obs().columns().keySet()) + ")");
        }
        return draw(data, color);
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

    private static String missingColumns(Frame frame, String where, List<String> names) {
        List<String> absent = names.stream().filter(n -> !frame.has(n)).toList();
        return absent.isEmpty() ? null : "no " + where + " column " + String.join(", ", absent);
    }

    /** The dispersion column HVG wrote: normalized when there, else raw, else seurat_v3's normalized variance. */
    private static String dispersion(Frame var) {
        for (String name : List.of("dispersions_norm", "dispersions", "variances_norm")) {
            if (var.has(name)) {
                return name;
            }
        }
        return null;
    }

    /**
     * The obs columns of {@code obs} that can colour a plot ({@code color}): numeric ones, and those of at most
     * {@link Groups#MAX_CATEGORIES} distinct values.
     */
    public static List<String> colourable(Frame obs) {
        return obs.columns().entrySet().stream().filter(c -> Groups.canColour(c.getValue())).map(Map.Entry::getKey)
                .toList();
    }

    /** Whether {@code column} holds numbers (plain or nullable), not strings, bools or categories. */
    static boolean isNumeric(Column column) {
        return values(column) != null;
    }

    /** The values of a numeric column as doubles, NaN where missing; {@code what} names it in the error. */
    static double[] numbers(Column column, String what) {
        DenseArray values = values(column);
        if (values == null) {
            throw new IllegalArgumentException(what + " is not numeric (" + column.typeName() + ")");
        }
        boolean[] mask = column instanceof NullableColumn n ? n.mask() : null;
        double[] out = new double[values.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = mask != null && mask[i] ? Double.NaN : values.getDouble(i);
        }
        return out;
    }

    private static DenseArray values(Column column) {
        DenseArray values = column instanceof ArrayColumn a ? a.values()
                : column instanceof NullableColumn n ? n.values() : null;
        return values != null && values.ndim() == 1 && values.dtype().isNumeric() ? values : null;
    }

    /**
     * A step outline of the counts of {@code values} in 40 equal bins (XChart's {@link Histogram}), NaN left out (the
     * binning would count it in the first bin), with the mean in the title.
     */
    private static XYChart histogram(String name, double[] values) {
        final int bins = 40;
        List<Double> kept = Arrays.stream(values).filter(v -> !Double.isNaN(v)).boxed().toList();
        DoubleSummaryStatistics stats = kept.stream().mapToDouble(Double::doubleValue).summaryStatistics();
        XYChart chart = chart(String.format(Locale.ROOT, "%s (mean %.4g)", name,
                kept.isEmpty() ? Double.NaN : stats.getAverage()), name, "cells");
        chart.getStyler().setLegendVisible(false);
        if (kept.isEmpty()) {
            return chart;
        }
        double min = stats.getMin();
        double max = stats.getMax() > min ? stats.getMax() : min + 1;
        List<Double> counts = new Histogram(kept, bins, min, max).getyAxisData();
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
        XYChart chart = chart(title, x, y);
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        chart.getStyler().setMarkerSize(4);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        return chart;
    }

    private static XYChart chart(String title, String x, String y) {
        XYChart chart = new XYChartBuilder().width(400).height(300).title(title).xAxisTitle(x).yAxisTitle(y).build();
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotGridLinesColor(new Color(0xe0e0e0));
        chart.getStyler().setAntiAlias(true);
        chart.getStyler().setLocale(Locale.ROOT);
        chart.getStyler().setXAxisDecimalPattern(NUMBER);
        chart.getStyler().setYAxisDecimalPattern(NUMBER);
        return chart;
    }

    /** {@code charts} side by side, each {@code width x height}, as one PNG. */
    private static byte[] encode(List<? extends Chart<?, ?>> charts, int width, int height) {
        BufferedImage image = new BufferedImage(width * charts.size(), height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            for (int i = 0; i < charts.size(); i++) {
                Graphics2D panel = (Graphics2D) g.create(i * width, 0, width, height);
                charts.get(i).paint(panel, width, height);
                panel.dispose();
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
}
