package io.scflux.samples.service;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The page at {@code /}, where the URL that {@code scflux serve} prints leads: the datasets of the data folder, each
 * with a link to its obs, and how to run a job. A browser opened on that URL gets the token's cookie with it, so the
 * pages it goes on to need no token in their address.
 */
final class IndexPage {

    private IndexPage() {
    }

    /** The page listing {@code datasets}, names of the data folder. */
    static String html(List<String> datasets) {
        StringBuilder list = new StringBuilder();
        for (String name : datasets) {
            String path = "/datasets/" + URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20") + "/obs";
            list.append("<li>").append(ResultsPage.escape(name)).append(" (<a href=\"")
                    .append(ResultsPage.escape(path)).append("\">obs</a>)</li>\n");
        }
        return "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>scflux serve</title>\n"
                + "<style>body{font-family:sans-serif;margin:2em}</style>\n</head>\n<body>\n<h1>scflux serve</h1>\n"
                + "<h2>Datasets</h2>\n" + (datasets.isEmpty() ? "<p>The data folder has none.</p>\n"
                : "<ul>\n" + list + "</ul>\n")
                + "<h2>Jobs</h2>\n<p><code>POST /jobs</code> with <code>{\"input\": NAME, \"steps\": [...], "
                + "\"params\": {...}}</code> runs one; <code>/jobs/ID/events</code> follows it and "
                + "<code>/jobs/ID/page</code> shows its plots.</p>\n</body>\n</html>\n";
    }
}
