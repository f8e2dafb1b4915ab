/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.plot;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;

/**
 * The key of a numeric colour: a vertical {@link Viridis} bar from the lowest value (bottom) to the highest (top),
 * round tick values beside it and the column's name along it, as matplotlib's colorbar beside a scanpy scatter;
 * below, a grey swatch counts the cells without a value.
 */
final class ColourBar {

    /** Ticks at most on the bar: about one per 50 pixels of a 300-pixel bar. */
    private static final int TICKS = 6;

    private static final int BAR_WIDTH = 16;
    private static final Color TEXT = new Color(0x333333);

    private final String name;
    private final double min;
    private final double max;
    private final int missing;
    private final Color missingColour;

    /** The bar of column {@code name} from {@code min} to {@code max}; {@code missing} cells drawn in that colour. */
    ColourBar(String name, double min, double max, int missing, Color missingColour) {
        this.name = name;
        this.min = min;
        this.max = max;
        this.missing = missing;
        this.missingColour = missingColour;
    }

    /**
     * Paints the key into {@code g}, a panel {@code width x height}; the bar spans from {@code top} to
     * {@code bottom} (pixels from the panel's top), as the scatter's plot area does.
     */
    void paint(Graphics2D g, int width, int height, int top, int bottom, Font font) {
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);
        int left = 8;
        for (int y = top; y <= bottom; y++) {
            g.setColor(Viridis.at((double) (bottom - y) / (bottom - top)));
            g.drawLine(left, y, left + BAR_WIDTH - 1, y);
        }
        g.setFont(font);
        FontMetrics metrics = g.getFontMetrics();
        g.setColor(TEXT);
        g.setStroke(new BasicStroke(1));
        g.drawRect(left, top, BAR_WIDTH - 1, bottom - top);
        // no ticks when every value is missing: there is no range to mark
        Ticks ticks = min <= max ? Ticks.between(min, max, TICKS) : new Ticks(new double[0], 0);
        int labelsRight = left + BAR_WIDTH + 4;
        for (int i = 0; i < ticks.values().length; i++) {
            int y = max > min
                    ? (int) Math.round(bottom - (ticks.values()[i] - min) / (max - min) * (bottom - top))
                    : (top + bottom) / 2;
            String label = ticks.label(i);
            g.drawLine(left + BAR_WIDTH, y, left + BAR_WIDTH + 3, y);
            g.drawString(label, left + BAR_WIDTH + 6, y + metrics.getAscent() / 2 - 1);
            labelsRight = Math.max(labelsRight, left + BAR_WIDTH + 6 + metrics.stringWidth(label));
        }
        // the column's name along the bar, read bottom to top like a y-axis title
        AffineTransform saved = g.getTransform();
        g.translate(labelsRight + 6 + metrics.getAscent(), (top + bottom) / 2 + metrics.stringWidth(name) / 2);
        g.rotate(-Math.PI / 2);
        g.drawString(name, 0, 0);
        g.setTransform(saved);
        if (missing > 0) {
            int y = bottom + 16;
            g.setColor(missingColour);
            g.fillRect(left, y, BAR_WIDTH, 10);
            g.setColor(TEXT);
            g.drawString("missing (" + missing + ")", left + BAR_WIDTH + 6, y + 10);
        }
    }
}
