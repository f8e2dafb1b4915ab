package io.scflux.samples.plot;

import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.Column;
import java.awt.Color;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Rows of a scatter split into coloured groups, one legend entry each: the categories of a categorical, string or bool
 * column (a qualitative palette), or equal-width bins of a numeric one (a light-to-dark ramp). Missing values form a
 * grey group of their own.
 */
final class Groups {

    /** Categories beyond this many cannot be told apart by colour. */
    static final int MAX_CATEGORIES = 20;
    /** Points drawn at most: beyond, every k-th row is drawn, so a million cells still plot in a second. */
    static final int MAX_POINTS = 100_000;

    private static final int BINS = 8;
    private static final Color MISSING = new Color(0xbbbbbb);
    private static final int[] PALETTE = {0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2,
        0x7f7f7f, 0xbcbd22, 0x17becf, 0xaec7e8, 0xffbb78, 0x98df8a, 0xff9896, 0xc5b0d5, 0xc49c94, 0xf7b6d2, 0xc7c7c7,
        0xdbdb8d, 0x9edae5};
    /** viridis at eight even steps. */
    private static final int[] RAMP = {0x440154, 0x46327e, 0x365c8d, 0x277f8e, 0x1fa187, 0x4ac16d, 0xa0da39,
        0xfde725};

    private final String[] labels;
    private final Color[] colors;
    /** The group of each row, an index into labels. */
    private final int[] group;

    private Groups(String[] labels, Color[] colors, int[] group) {
        this.labels = labels;
        this.colors = colors;
        this.group = group;
    }

    /** All {@code n} rows in one group. */
    static Groups all(int n) {
        return new Groups(new String[] {"cells"}, new Color[] {new Color(PALETTE[0])}, new int[n]);
    }

    /** Rows where the bool column {@code flags} is true, in colour, and the others in grey. */
    static Groups flags(Column flags, String yes, String no) {
        int[] group = new int[flags.size()];
        for (int i = 0; i < group.length; i++) {
            group[i] = Boolean.TRUE.equals(flags.get(i)) ? 1 : 0;
        }
        return new Groups(new String[] {no, yes}, new Color[] {MISSING, new Color(PALETTE[3])}, group);
    }

    /** Whether {@link #of} can colour by {@code column}: numbers, or at most {@link #MAX_CATEGORIES} values. */
    static boolean canColour(Column column) {
        return Plot.isNumeric(column) || (column instanceof CategoricalColumn c ? c
                : categorical(column)).categories().size() <= MAX_CATEGORIES;
    }

    /** The groups of the obs column {@code name}: its categories, or bins of its values when it is numeric. */
    static Groups of(String name, Column column) {
        if (Plot.isNumeric(column)) {
            return bins(Plot.numbers(column, "obs column " + name));
        }
        CategoricalColumn c = column instanceof CategoricalColumn cat ? cat : categorical(column);
        int n = c.categories().size();
        if (n > MAX_CATEGORIES) {
            throw new IllegalArgumentException("obs column " + name + " has " + n + " categories, more than the "
                    + MAX_CATEGORIES + " colours can tell apart");
        }
        String[] labels = new String[n + 1];
        Color[] colors = new Color[n + 1];
        for (int k = 0; k < n; k++) {
            labels[k] = String.valueOf(c.categories().get(k));
            colors[k] = new Color(PALETTE[k]);
        }
        labels[n] = "missing";
        colors[n] = MISSING;
        int[] group = new int[c.size()];
        for (int i = 0; i < group.length; i++) {
            int code = c.code(i);
            group[i] = code < 0 ? n : code;
        }
        return new Groups(labels, colors, group);
    }

    private static CategoricalColumn categorical(Column column) {
        String[] values = new String[column.size()];
        for (int i = 0; i < values.length; i++) {
            Object v = column.get(i);
            values[i] = v == null ? null : v.toString();
        }
        return CategoricalColumn.fromValues(values);
    }

    private static Groups bins(double[] values) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double v : values) {
            if (!Double.isNaN(v)) {
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
        }
        double width = max > min ? (max - min) / BINS : 1;
        DecimalFormat number = new DecimalFormat(Plot.NUMBER, DecimalFormatSymbols.getInstance(Locale.ROOT));
        String[] labels = new String[BINS + 1];
        Color[] colors = new Color[BINS + 1];
        for (int b = 0; b < BINS; b++) {
            labels[b] = number.format(min + b * width) + " – " + number.format(min + (b + 1) * width);
            colors[b] = new Color(RAMP[b]);
        }
        labels[BINS] = "missing";
        colors[BINS] = MISSING;
        int[] group = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            group[i] = Double.isNaN(values[i]) ? BINS : Math.min(BINS - 1, (int) ((values[i] - min) / width));
        }
        return new Groups(labels, colors, group);
    }

    /** One scatter series per non-empty group, points {@code (x[i], y[i])} where both are numbers. */
    void addTo(XYChart chart, double[] x, double[] y) {
        int stride = Math.max(1, (group.length + MAX_POINTS - 1) / MAX_POINTS);
        int[] sizes = new int[labels.length];
        for (int i = 0; i < group.length; i += stride) {
            if (!Double.isNaN(x[i]) && !Double.isNaN(y[i])) {
                sizes[group[i]]++;
            }
        }
        for (int g = 0; g < labels.length; g++) {
            if (sizes[g] == 0) {
                continue;
            }
            double[] gx = new double[sizes[g]];
            double[] gy = new double[sizes[g]];
            int j = 0;
            for (int i = 0; i < group.length; i += stride) {
                if (group[i] == g && !Double.isNaN(x[i]) && !Double.isNaN(y[i])) {
                    gx[j] = x[i];
                    gy[j++] = y[i];
                }
            }
            XYSeries series = chart.addSeries(labels[g] + " (" + sizes[g] + ")", gx, gy);
            series.setMarker(SeriesMarkers.CIRCLE);
            series.setMarkerColor(colors[g]);
        }
    }
}
