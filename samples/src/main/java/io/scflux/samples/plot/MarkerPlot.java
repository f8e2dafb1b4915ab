/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.plot;

import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.RecordArray;
import io.scflux.ops.markers.RankGenesGroups;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.geom.AffineTransform;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * scanpy's {@code pl.rank_genes_groups} from {@code uns["rank_genes_groups"]}: a panel per group, its best genes'
 * scores against their rank with each gene's name upright above its score, four panels to a row on one score axis.
 */
final class MarkerPlot {

    /** Panels to a row, as scanpy's {@code ncols}. */
    static final int COLUMNS = 4;

    private final String reference;
    private final List<Group> groups;
    private final double lo;
    private final double hi;

    /** One group's panel: its first genes by rank and their scores. */
    record Group(String name, String[] genes, double[] scores) {}

    private MarkerPlot(String reference, List<Group> groups, double lo, double hi) {
        this.reference = reference;
        this.groups = groups;
        this.lo = lo;
        this.hi = hi;
    }

    /**
     * What {@code data}'s results lack for this plot (one line), or null when they have it: names and, for each of
     * their groups, numeric scores.
     */
    static @Nullable String missing(AnnData data) {
        if (!(data.uns().get(RankGenesGroups.KEY) instanceof Map<?, ?> results)) {
            return "no uns " + RankGenesGroups.KEY;
        }
        if (!(results.get("names") instanceof RecordArray names)
                || !(results.get("scores") instanceof RecordArray scores)) {
            return "no names and scores in uns " + RankGenesGroups.KEY;
        }
        for (String group : names.fields().keySet()) {
            DenseArray s = scores.field(group);
            if (s == null || !s.dtype().isNumeric()) {
                return "no numeric scores of group " + group + " in uns " + RankGenesGroups.KEY;
            }
        }
        return null;
    }

    /**
     * The first {@code nGenes} genes of each group of {@code data}'s results, which {@link #missing} found complete;
     * the score axis runs from the lowest score shown to the highest plus 30 % of the range, room for the names.
     */
    static MarkerPlot of(AnnData data, int nGenes) {
        Map<?, ?> results =
                (Map<?, ?>) Objects.requireNonNull(data.uns().get(RankGenesGroups.KEY), "missing() found the results");
        RecordArray names = (RecordArray) Objects.requireNonNull(results.get("names"), "missing() found the names");
        RecordArray scores = (RecordArray) Objects.requireNonNull(results.get("scores"), "missing() found the scores");
        List<Group> groups = new ArrayList<>();
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (String group : names.fields().keySet()) {
            DenseArray s = scores.field(group);
            int n = Math.min(nGenes, Math.min(names.size(), scores.size()));
            double[] values = new double[n];
            for (int i = 0; i < n; i++) {
                values[i] = s.getDouble(i);
                if (Double.isFinite(values[i])) {
                    lo = Math.min(lo, values[i]);
                    hi = Math.max(hi, values[i]);
                }
            }
            DenseArray named = names.field(group);
            String[] genes = new String[n];
            Arrays.setAll(genes, i -> String.valueOf(named.get(i)));
            groups.add(new Group(group, genes, values));
        }
        if (!(hi >= lo)) {
            lo = 0;
            hi = 1;
        } else if (hi == lo) {
            lo -= 1;
            hi += 1;
        }
        return new MarkerPlot(reference(results), groups, lo, hi + 0.3 * (hi - lo));
    }

    /** {@code params["reference"]}: a string as the operator leaves it, a scalar as a file holds it. */
    private static String reference(Map<?, ?> results) {
        Object value = results.get("params") instanceof Map<?, ?> params ? params.get("reference") : null;
        return value instanceof DenseArray a && a.size() == 1
                ? String.valueOf(a.get(0))
                : value == null ? "rest" : value.toString();
    }

    List<Group> groups() {
        return groups;
    }

    double lo() {
        return lo;
    }

    double hi() {
        return hi;
    }

    /** Panel {@code i}'s title, as scanpy's. */
    String title(int i) {
        return groups.get(i).name() + " vs. " + reference;
    }

    /**
     * Paints group {@code i}'s panel: "ranking" under the last row's panels and "score" beside each row's first, as
     * scanpy labels them; the names at 11 pixels, centred on their rank, reading upwards from their score.
     */
    void paint(Graphics2D g, int i, int width, int height) {
        Group group = groups.get(i);
        int rows = (groups.size() + COLUMNS - 1) / COLUMNS;
        XYChart chart =
                Charts.chart(title(i), i >= COLUMNS * (rows - 1) ? "ranking" : " ", i % COLUMNS == 0 ? "score" : " ");
        chart.getStyler().setLegendVisible(false);
        chart.getStyler().setXAxisMin(-0.9);
        chart.getStyler().setXAxisMax(group.genes().length - 0.1);
        chart.getStyler().setYAxisMin(lo);
        chart.getStyler().setYAxisMax(hi);
        double[] ranks = new double[group.scores().length];
        Arrays.setAll(ranks, r -> r);
        // the axes need a series; the names are the marks
        XYSeries series = chart.addSeries(group.name(), ranks, group.scores());
        series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        series.setMarker(SeriesMarkers.NONE);
        chart.paint(g, width, height);
        Font font = chart.getStyler().getAxisTickLabelsFont().deriveFont(11f);
        FontMetrics metrics = g.getFontMetrics(font);
        g.setFont(font);
        g.setColor(Color.BLACK);
        AffineTransform plain = g.getTransform();
        for (int r = 0; r < ranks.length; r++) {
            if (!Double.isFinite(group.scores()[r])) {
                continue;
            }
            g.translate(chart.getScreenXFromChart(r), chart.getScreenYFromChart(group.scores()[r]));
            g.rotate(-Math.PI / 2);
            g.drawString(group.genes()[r], 0, (metrics.getAscent() - metrics.getDescent()) / 2f);
            g.setTransform(plain);
        }
    }
}
