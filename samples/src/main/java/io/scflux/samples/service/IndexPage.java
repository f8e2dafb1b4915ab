/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The page at {@code /}, where the URL that {@code scflux serve} prints leads: the datasets of the data folder, each
 * with a link to its obs, the jobs with their state and links, and how to run one. A browser opened on that URL gets
 * the token's cookie with it, so the pages it goes on to need no token in their address.
 */
final class IndexPage {

    private IndexPage() {}

    /** The page listing {@code datasets}, names of the data folder, and {@code jobs} with their state and links. */
    static String html(List<String> datasets, List<Job> jobs) {
        StringBuilder list = new StringBuilder();
        for (String name : datasets) {
            String path = "/datasets/"
                    + URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20") + "/obs";
            list.append("<li>")
                    .append(ResultsPage.escape(name))
                    .append(" (<a href=\"")
                    .append(ResultsPage.escape(path))
                    .append("\">obs</a>)</li>\n");
        }
        StringBuilder rows = new StringBuilder();
        for (Job job : jobs) {
            ObjectNode d = job.describe(); // one read of the state, which moves on as the job runs
            String id = d.get("id").asText();
            rows.append("<tr><td><code>")
                    .append(ResultsPage.escape(id.substring(0, Math.min(12, id.length()))))
                    .append("</code></td><td>")
                    .append(ResultsPage.escape(d.get("input").asText()))
                    .append("</td><td>")
                    .append(ResultsPage.escape(String.join(", ", job.steps())))
                    .append("</td><td>")
                    .append(ResultsPage.escape(d.get("state").asText()))
                    .append("</td><td>");
            d.get("links").fields().forEachRemaining(link -> {
                if (!link.getKey().equals("self")) {
                    rows.append("<a href=\"")
                            .append(ResultsPage.escape(link.getValue().asText()))
                            .append("\">")
                            .append(link.getKey())
                            .append("</a> ");
                }
            });
            rows.append("</td></tr>\n");
        }
        return "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>scflux serve</title>\n"
                + "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
                + "td,th{padding:.2em .8em;text-align:left;border-bottom:1px solid #ddd}</style>\n</head>\n<body>\n"
                + "<h1>scflux serve</h1>\n<h2>Datasets</h2>\n"
                + (datasets.isEmpty() ? "<p>The data folder has none.</p>\n" : "<ul>\n" + list + "</ul>\n")
                + "<h2>Jobs</h2>\n"
                + (jobs.isEmpty()
                        ? "<p>None yet.</p>\n"
                        : "<table>\n<tr><th>id</th><th>input</th><th>steps</th><th>state</th><th>links</th></tr>\n"
                                + rows + "</table>\n")
                + "<p><code>POST /jobs</code> with <code>{\"input\": NAME, \"steps\": [...], \"params\": {...}}</code> "
                + "runs one; <code>GET /jobs</code> lists them as JSON, <code>GET /jobs/ID</code> gives one's state, "
                + "<code>/jobs/ID/events</code> follows it and <code>/jobs/ID/page</code> shows its plots.</p>\n"
                + "</body>\n</html>\n";
    }
}
