/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.reactivestreams.Publisher;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * The service's routes, each a method and a path template ({@code /jobs/{id}/plots/{image}}): a request goes to the
 * route its method and path match, with the template's variables (percent-decoded) as its params. Reactor Netty's
 * own routes answer an unknown path or method with an empty 404; here a path no route has is a 404 {@link Problem}
 * and a path whose routes take other methods a 405 one naming them in {@code Allow}.
 */
final class Router {

    /** A route's handler, as Reactor Netty's. */
    interface Handler extends BiFunction<HttpServerRequest, HttpServerResponse, Publisher<Void>> {}

    private static final Pattern VARIABLE = Pattern.compile("\\{(\\w+)}");

    private record Route(HttpMethod method, Pattern path, List<String> names, Handler handler) {}

    private final List<Route> routes = new ArrayList<>();

    Router get(String template, Handler handler) {
        return add(HttpMethod.GET, template, handler);
    }

    Router post(String template, Handler handler) {
        return add(HttpMethod.POST, template, handler);
    }

    Router delete(String template, Handler handler) {
        return add(HttpMethod.DELETE, template, handler);
    }

    /** Hands {@code request} to its route; throws the 404 or 405 {@link Problem} when none takes it. */
    Publisher<Void> dispatch(HttpServerRequest request, HttpServerResponse response) {
        String path = new QueryStringDecoder(request.uri()).rawPath();
        Set<String> allowed = new LinkedHashSet<>();
        for (Route route : routes) {
            Matcher m = route.path.matcher(path);
            if (!m.matches()) {
                continue;
            }
            if (!route.method.equals(request.method())) {
                allowed.add(route.method.name());
                continue;
            }
            Map<String, String> params = new LinkedHashMap<>();
            for (int i = 0; i < route.names.size(); i++) {
                params.put(route.names.get(i), QueryStringDecoder.decodeComponent(m.group(i + 1)));
            }
            return route.handler.apply(request.paramsResolver(p -> params), response);
        }
        if (allowed.isEmpty()) {
            throw new Problem(HttpResponseStatus.NOT_FOUND, "Unknown route", "no route " + path, null);
        }
        throw new Problem(
                        HttpResponseStatus.METHOD_NOT_ALLOWED,
                        "Method not allowed",
                        path + " takes " + String.join(", ", allowed) + ", not "
                                + request.method().name(),
                        null)
                .withHeader(HttpHeaderNames.ALLOW, String.join(", ", allowed));
    }

    private Router add(HttpMethod method, String template, Handler handler) {
        StringBuilder regex = new StringBuilder();
        List<String> names = new ArrayList<>();
        Matcher m = VARIABLE.matcher(template);
        int end = 0;
        while (m.find()) {
            regex.append(Pattern.quote(template.substring(end, m.start()))).append("([^/]+)");
            names.add(m.group(1));
            end = m.end();
        }
        regex.append(Pattern.quote(template.substring(end)));
        routes.add(new Route(method, Pattern.compile(regex.toString()), List.copyOf(names), handler));
        return this;
    }
}
