/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerResponse;

/**
 * An error the service answers as an RFC 9457 problem document ({@code application/problem+json} with type, title,
 * status, detail and, when one field of the request is at fault, field). Every error the service sends is one, an
 * unknown route and a wrong method included, so a client reads one shape. Thrown by handlers, or made by
 * {@link Service} from any other failure; it carries no stack trace, as it is an answer rather than a fault.
 */
final class Problem extends RuntimeException {

    static final String CONTENT_TYPE = "application/problem+json";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpResponseStatus status;
    private final String title;
    private final @Nullable String field;
    private final Map<String, String> headers = new LinkedHashMap<>();

    /** A problem of {@code status}; {@code field} names the request's culprit, or is null. */
    Problem(HttpResponseStatus status, String title, @Nullable String detail, @Nullable String field) {
        super(detail, null, false, false);
        this.status = status;
        this.title = title;
        this.field = field;
    }

    /** This problem, sent with the response header {@code name} (405's Allow, 401's WWW-Authenticate). */
    Problem withHeader(CharSequence name, String value) {
        headers.put(name.toString(), value);
        return this;
    }

    HttpResponseStatus status() {
        return status;
    }

    String title() {
        return title;
    }

    /** Sends the document; its detail goes through {@code redaction} (which takes server paths and the token out). */
    Mono<Void> send(HttpServerResponse response, UnaryOperator<String> redaction) {
        response.status(status).header(HttpHeaderNames.CONTENT_TYPE, CONTENT_TYPE);
        headers.forEach(response::header);
        return response.sendString(Mono.just(json(redaction))).then();
    }

    /** The document, its detail through {@code redaction}. */
    String json(UnaryOperator<String> redaction) {
        ObjectNode body = JSON.createObjectNode()
                .put("type", "about:blank")
                .put("title", title)
                .put("status", status.code())
                .put("detail", redaction.apply(getMessage()));
        if (field != null) {
            body.put("field", field);
        }
        return body.toString();
    }
}
