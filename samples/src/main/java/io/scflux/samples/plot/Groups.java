/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.plot;

import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.Column;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.geom.Path2D;
import org.jspecify.annotations.Nullable;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Rows of a scatter split into coloured groups: the categories of a categorical, string or bool column (a qualitative
 * palette, one legend entry each), or the values of a numeric one on the {@link Viridis} scale with a
 * {@link ColourBar} for key. Missing values are grey.
 */
final class Groups {

    /** Categories beyond this many cannot be told apart by colour. */
    static final int MAX_CATEGORIES = 20;
    /** Points drawn at most: beyond, every k-th row is drawn, so a million cells still plot in a second. */
    static final int MAX_POINTS = 100_000;

    /** Steps of a numeric colour, as matplotlib's colour maps have: more than an eye tells apart on a point. */
    private static final int LEVELS = 256;

    private static final Color MISSING = new Color(0xbbbbbb);
    private static final int[] PALETTE = {
        0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2, 0x7f7f7f, 0xbcbd22, 0x17becf, 0xaec7e8,
        0xffbb78, 0x98df8a, 0xff9896, 0xc5b0d5, 0xc49c94, 0xf7b6d2, 0xc7c7c7, 0xdbdb8d, 0x9edae5
    };

    private final String[] labels;
    private final Color[] colors;
    /** The group of each row, an index into labels; groups are drawn in this order, the last on top. */
    private final int[] group;
    /** The key of a numeric colour, or null: the groups are then named in the chart's legend. */
    private final @Nullable ColourBar bar;

    private Groups(String[] labels, Color[] colors, int[] group, @Nullable ColourBar bar) {
        this.labels = labels;
        this.colors = colors;
        this.group = group;
        this.bar = bar;
    }

    /** All {@code n} rows in one group. */
    static Groups all(int n) {
        return new Groups(new String[] {"cells"}, new Color[] {new Color(PALETTE[0])}, new int[n], null);
    }

    /** Rows where the bool column {@code flags} is true, in colour, and the others in grey. */
    static Groups flags(Column flags, String yes, String no) {
        int[] group = new int[flags.size()];
        for (int i = 0; i < group.length; i++) {
            group[i] = Boolean.TRUE.equals(flags.get(i)) ? 1 : 0;
        }
        return new Groups(new String[] {no, yes}, new Color[] {MISSING, new Color(PALETTE[3])}, group, null);
    }

    /** Whether {@link #of} can colour by {@code column}: numbers, or at most {@link #MAX_CATEGORIES} values. */
    static boolean canColour(Column column) {
        return NumericColumns.isNumeric(column)
                || categorical(column).categories().size() <= MAX_CATEGORIES;
    }

    /** The groups of the obs column {@code name}: its categories, or its values on a colour scale when numeric. */
    static Groups of(String name, Column column) {
        if (NumericColumns.isNumeric(column)) {
            return scale(name, NumericColumns.numbers(column, "obs column " + name));
        }
        CategoricalColumn c = categorical(column);
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
        return new Groups(labels, colors, group, null);
    }

    private static CategoricalColumn categorical(Column column) {
        if (column instanceof CategoricalColumn c) {
            return c;
        }
        String[] values = new String[column.size()];
        for (int i = 0; i < values.length; i++) {
            Object v = column.get(i);
            values[i] = v == null ? null : v.toString();
        }
        return CategoricalColumn.fromValues(values);
    }

    /**
     * {@code values} on the viridis scale from their minimum to their maximum, in {@link #LEVELS} steps as
     * matplotlib's colour maps (a value's step is {@code floor(t * 256)}, its colour the scale's at step / 255);
     * missing values first, in grey, so that every value is drawn over them, and higher values over lower ones, as
     * scanpy sorts them.
     */
    static Groups scale(String name, double[] values) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        int missing = 0;
        for (double v : values) {
            if (Double.isNaN(v)) {
                missing++;
            } else {
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
        }
        String[] labels = new String[LEVELS + 1];
        Color[] colors = new Color[LEVELS + 1];
        labels[0] = "missing";
        colors[0] = MISSING;
        for (int level = 0; level < LEVELS; level++) {
            labels[level + 1] = name + " step " + level;
            colors[level + 1] = Viridis.at(level / (LEVELS - 1.0));
        }
        double range = max - min;
        int[] group = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            double t = range > 0 ? (values[i] - min) / range : 0.5;
            group[i] = Double.isNaN(values[i]) ? 0 : 1 + Math.min(LEVELS - 1, (int) (t * LEVELS));
        }
        return new Groups(labels, colors, group, new ColourBar(name, min, max, missing, MISSING));
    }

    /** The key of a numeric colour, drawn beside the chart, or null when the chart's legend names the groups. */
    @Nullable
    ColourBar bar() {
        return bar;
    }

    /**
     * Scatter series of the points {@code (x[i], y[i])} where both are numbers, one per non-empty group, named in the
     * legend unless there is a colour bar. Points beyond {@code yRange} are drawn at its edge as triangles pointing
     * the way they lie, in series of their own, so that they stay visible without squeezing the others.
     */
    void addTo(XYChart chart, double[] x, double[] y, AxisRange yRange) {
        int stride = Math.max(1, (group.length + MAX_POINTS - 1) / MAX_POINTS);
        int[] sizes = new int[3 * labels.length];
        for (int i = 0; i < group.length; i += stride) {
            if (!Double.isNaN(x[i]) && !Double.isNaN(y[i])) {
                sizes[3 * group[i] + side(y[i], yRange)]++;
            }
        }
        for (int g = 0; g < labels.length; g++) {
            for (int side = 0; side < 3; side++) {
                int size = sizes[3 * g + side];
                if (size == 0) {
                    continue;
                }
                double[] gx = new double[size];
                double[] gy = new double[size];
                int j = 0;
                for (int i = 0; i < group.length; i += stride) {
                    if (group[i] == g && !Double.isNaN(x[i]) && !Double.isNaN(y[i]) && side(y[i], yRange) == side) {
                        gx[j] = x[i];
                        gy[j++] = Math.max(yRange.lo(), Math.min(yRange.hi(), y[i]));
                    }
                }
                String label = labels[g]
                        + switch (side) {
                            case 0 -> "";
                            case 1 -> " above the axis";
                            default -> " below the axis";
                        }
                        + " (" + size + ")";
                XYSeries series = chart.addSeries(label, gx, gy);
                series.setMarker(side == 0 ? SeriesMarkers.CIRCLE : new Beyond(side == 1));
                series.setMarkerColor(colors[g]);
                series.setShowInLegend(bar == null);
            }
        }
    }

    /**
     * The marker of a point beyond the axis, drawn at its edge: a triangle pointing the way the point lies, larger
     * than a point and outlined, so that it is not taken for one.
     */
    private static final class Beyond extends Marker {

        private static final Color OUTLINE = new Color(0x333333);

        private final boolean up;

        Beyond(boolean up) {
            this.up = up;
        }

        @Override
        public void paint(Graphics2D g, double x, double y, int size) {
            double half = size * 1.25;
            double tip = up ? -half : half;
            Path2D triangle = new Path2D.Double();
            triangle.moveTo(x, y + tip);
            triangle.lineTo(x - half, y - tip);
            triangle.lineTo(x + half, y - tip);
            triangle.closePath();
            Color fill = g.getColor();
            g.fill(triangle);
            g.setColor(OUTLINE);
            g.setStroke(new BasicStroke(1f));
            g.draw(triangle);
            g.setColor(fill);
        }
    }

    /** 0 within the range, 1 above it, 2 below it. */
    private static int side(double y, AxisRange range) {
        return y > range.hi() ? 1 : y < range.lo() ? 2 : 0;
    }
}
