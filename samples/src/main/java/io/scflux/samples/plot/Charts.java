/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.plot;

import java.awt.Color;
import java.util.Locale;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

/** The look every plot's chart shares: its size, white ground, light grid and numbers written as {@code #,##0.###}. */
final class Charts {

    private static final String NUMBER = "#,##0.###";

    private Charts() {}

    /** An empty 400 x 300 chart titled {@code title}, its axes {@code x} and {@code y}. */
    static XYChart chart(String title, String x, String y) {
        XYChart chart = new XYChartBuilder()
                .width(400)
                .height(300)
                .title(title)
                .xAxisTitle(x)
                .yAxisTitle(y)
                .build();
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotGridLinesColor(new Color(0xe0e0e0));
        chart.getStyler().setAntiAlias(true);
        chart.getStyler().setLocale(Locale.ROOT);
        chart.getStyler().setXAxisDecimalPattern(NUMBER);
        chart.getStyler().setYAxisDecimalPattern(NUMBER);
        return chart;
    }
}
