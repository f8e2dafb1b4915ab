/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import io.scflux.core.anndata.AnnData;
import io.scflux.samples.plot.Plot;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * The HTML page of a job's results: its QC, HVG and PCA plots as images of {@code /jobs/ID/plots/KIND.png}, the
 * scatter coloured by an obs column picked in a select (the first categorical one to begin with), and in place of a
 * plot the output lacks, what is missing. A small script marks each image loaded ({@code data-natural-width}) and the
 * hidden {@code #status} loaded or broken, which a browser test reads; a reader sees it only when a plot failed.
 */
final class ResultsPage {

    private static final String SCRIPT = """
            const images = [...document.querySelectorAll('img.plot')];
            const status = document.getElementById('status');
            function report() {
              images.filter(i => i.complete).forEach(i => i.dataset.naturalWidth = i.naturalWidth);
              if (images.every(i => i.complete)) {
                const broken = images.filter(i => i.naturalWidth === 0).map(i => i.alt);
                status.dataset.state = broken.length === 0 ? 'loaded' : 'broken';
                status.textContent = broken.length === 0 ? ''
                    : 'Not shown: ' + broken.join(', ') + '. Reload the page to try again.';
                status.hidden = broken.length === 0;
              }
            }
            images.forEach(i => {
              i.addEventListener('load', report);
              i.addEventListener('error', report);
            });
            const color = document.getElementById('color');
            if (color) {
              color.addEventListener('change', () => {
                const pca = document.getElementById('plot-pca');
                status.dataset.state = 'loading';
                delete pca.dataset.naturalWidth;
                pca.src = pca.dataset.base + (color.value ? '?color=' + encodeURIComponent(color.value) : '');
              });
            }
            report();
            """;

    private ResultsPage() {}

    /**
     * The page of {@code job}; {@code output} is its output's annotations once it is done (else null: the page says
     * where the job is and reloads itself until it ends), {@code color} the obs column the PCA scatter starts with:
     * null for the first categorical one ({@link Plot#defaultColour}), empty for none.
     */
    static String html(Job job, @Nullable AnnData output, @Nullable String color) {
        StringBuilder body = new StringBuilder();
        JobEvent last = job.last();
        body.append("<h1>scflux job ")
                .append(escape(job.id()))
                .append("</h1>\n<p>")
                .append(escape(job.input()))
                .append(" → ")
                .append(escape(String.join(", ", job.steps())))
                .append(
                        job.done()
                                ? " → <a href=\"/jobs/" + escape(job.id()) + "/result\">"
                                        + escape(job.output().getFileName().toString()) + "</a>"
                                : "")
                .append("</p>\n");
        boolean refresh = last == null;
        if (last == null) {
            body.append("<p>The job ")
                    .append(job.started() ? "runs" : "is queued")
                    .append("; this page reloads until it ends.</p>\n");
        } else if (output == null) {
            body.append("<p>The job ended ")
                    .append(escape(last.name()))
                    .append(
                            last.data().has("error")
                                    ? ": " + escape(last.data().get("error").asText())
                                    : "")
                    .append("; it has no output to plot.</p>\n");
        } else {
            for (Plot plot : Plot.values()) {
                if (plot == Plot.UMAP
                        && Plot.UMAP.missing(output) != null
                        && !job.steps().contains("umap")) {
                    continue; // the map is a later step of the tutorial: shown when the job makes it
                }
                section(body, job, output, plot, color);
            }
        }
        body.append("<p id=\"status\" data-state=\"loading\" class=\"missing\" hidden></p>\n");
        return "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                + (refresh ? "<meta http-equiv=\"refresh\" content=\"2\">\n" : "")
                + "<title>scflux job " + escape(job.id()) + "</title>\n"
                + "<style>body{font-family:sans-serif;margin:2em}img{max-width:100%;border:1px solid #ddd}"
                + ".missing{color:#a33}</style>\n</head>\n<body>\n" + body + "<script>\n" + SCRIPT
                + "</script>\n</body>\n</html>\n";
    }

    private static void section(StringBuilder body, Job job, AnnData output, Plot plot, @Nullable String color) {
        String title = switch (plot) {
            case QC -> "Quality control";
            case HVG -> "Highly variable genes";
            case PCA -> "PCA";
            case UMAP -> "UMAP";
            case RANK_GENES_GROUPS -> "Marker genes";
        };
        body.append("<section id=\"")
                .append(plot.wireName())
                .append("\">\n<h2>")
                .append(title)
                .append("</h2>\n");
        String missing = plot.missing(output);
        if (missing != null) {
            body.append("<p class=\"missing\">Not drawn: ")
                    .append(escape(job.output().getFileName().toString()))
                    .append(" has ")
                    .append(escape(missing))
                    .append(". Add the ")
                    .append(plot.step())
                    .append(" step to the job (steps: ")
                    .append(escape(String.join(", ", job.steps())))
                    .append(").</p>\n</section>\n");
            return;
        }
        String base = "/jobs/" + escape(job.id()) + "/plots/" + plot.wireName() + ".png";
        String src = base;
        if (plot == Plot.UMAP && output.obs().has("leiden")) { // as the tutorial draws it: by the clusters
            src = base + "?color=leiden";
        }
        if (plot == Plot.PCA) {
            String wanted = color == null ? Plot.defaultColour(output.obs()) : color;
            String picked = wanted != null && output.obs().has(wanted) ? wanted : null;
            src = picked == null ? base : base + "?color=" + escape(URLEncoder.encode(picked, StandardCharsets.UTF_8));
            body.append("<label>Colour by <select id=\"color\">\n<option value=\"\"")
                    .append(picked == null ? " selected" : "")
                    .append(">none</option>\n");
            for (String c : Plot.colourable(output.obs())) {
                body.append("<option")
                        .append(c.equals(picked) ? " selected" : "")
                        .append(">")
                        .append(escape(c))
                        .append("</option>\n");
            }
            body.append("</select></label><br>\n");
        }
        body.append("<img class=\"plot\" id=\"plot-")
                .append(plot.wireName())
                .append("\" data-base=\"")
                .append(base)
                .append("\" src=\"")
                .append(src)
                .append("\" alt=\"")
                .append(title)
                .append("\">\n</section>\n");
    }

    /** {@code text} with the characters HTML gives a meaning escaped, for text and attribute values. */
    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
