/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.cookie.Cookie;
import io.netty.handler.codec.http.cookie.CookieHeaderNames.SameSite;
import io.netty.handler.codec.http.cookie.DefaultCookie;
import io.netty.handler.codec.http.cookie.ServerCookieDecoder;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * Who may drive the service, decided as Jupyter does, before any route. First the origin: a request whose
 * {@code Origin} header is not the server's own (the scheme, host and port it was reached at, from its {@code Host}
 * header) is a 403, so that a page of another site cannot drive it through a browser. Then the token, random at
 * start or given: a request carries it as {@code Authorization: Bearer TOKEN}, or as {@code ?token=TOKEN}, which also
 * sets a cookie (HttpOnly: no script reads it; SameSite=Strict: no other site's page sends it) so that a browser
 * opened on the URL {@code serve} prints goes on to the results pages and their images with the cookie alone; without
 * it, a 401. Tokens are compared in constant time, so that the time of a refusal tells nothing of the token.
 */
final class Access {

    /** The query parameter that carries the token. */
    static final String QUERY = "token";

    private static final Pattern WELL_FORMED = Pattern.compile("[A-Za-z0-9._~-]{16,}");
    private static final String BEARER = "bearer ";

    private final String token;
    private final byte[] digest;

    /** Access with {@code token}, which must be {@link #checkToken well formed}. */
    Access(@Nullable String token) {
        this.token = checkToken(token);
        this.digest = sha256(this.token);
    }

    /**
     * {@code token} when it may be the service's: at least 16 characters, each a letter, digit, {@code .}, {@code _},
     * {@code ~} or {@code -} (it goes in URLs and a cookie as it is); else an IllegalArgumentException saying so.
     */
    static String checkToken(@Nullable String token) {
        if (token == null || !WELL_FORMED.matcher(token).matches()) {
            throw new IllegalArgumentException(
                    "a token must have at least 16 characters, each a letter, a digit or " + "one of . _ ~ -");
        }
        return token;
    }

    /**
     * Lets {@code request} through, setting the cookie on {@code response} when the token came in the query; throws
     * the 403 {@link Problem} for a foreign origin, then the 401 one for a missing or wrong token.
     */
    void check(HttpServerRequest request, HttpServerResponse response) {
        String origin = request.requestHeaders().get(HttpHeaderNames.ORIGIN);
        String host = request.requestHeaders().get(HttpHeaderNames.HOST);
        if (origin != null && !sameOrigin(origin, host)) {
            throw new Problem(
                    HttpResponseStatus.FORBIDDEN,
                    "Cross-origin request refused",
                    "origin " + origin + " is not this server's (http://" + host + ")",
                    null);
        }
        String cookie = cookieName(request);
        if (matches(bearer(request)) || matches(cookie(request, cookie))) {
            return;
        }
        List<String> query = new QueryStringDecoder(request.uri()).parameters().get(QUERY);
        if (query != null && query.size() == 1 && matches(query.get(0))) {
            DefaultCookie set = new DefaultCookie(cookie, token);
            set.setHttpOnly(true);
            set.setSameSite(SameSite.Strict);
            set.setPath("/");
            response.addCookie(set);
            return;
        }
        throw new Problem(
                        HttpResponseStatus.UNAUTHORIZED,
                        "Token required",
                        "this service needs its token: "
                                + "Authorization: Bearer TOKEN, or ?token=TOKEN in a browser (scflux serve prints the URL with it "
                                + "first)",
                        null)
                .withHeader(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"scflux\"");
    }

    private boolean matches(@Nullable String given) {
        return given != null && MessageDigest.isEqual(digest, sha256(given));
    }

    /** The cookie's name, with the server's port: the cookies of a host are shared by all its ports. */
    private static String cookieName(HttpServerRequest request) {
        // a request reaching a handler came in on the server's socket, so it has a local address
        return "scflux-token-"
                + Objects.requireNonNull(request.hostAddress(), "the server's address")
                        .getPort();
    }

    private static @Nullable String bearer(HttpServerRequest request) {
        String header = request.requestHeaders().get(HttpHeaderNames.AUTHORIZATION);
        return header != null && header.regionMatches(true, 0, BEARER, 0, BEARER.length())
                ? header.substring(BEARER.length()).trim()
                : null;
    }

    private static @Nullable String cookie(HttpServerRequest request, String name) {
        String header = request.requestHeaders().get(HttpHeaderNames.COOKIE);
        if (header == null) {
            return null;
        }
        for (Cookie c : ServerCookieDecoder.LAX.decodeAll(header)) {
            if (c.name().equals(name)) {
                return c.value();
            }
        }
        return null;
    }

    /** Whether {@code origin} is {@code http://} and the host and port of the {@code Host} header {@code host}. */
    private static boolean sameOrigin(String origin, String host) {
        if (host == null) {
            return false;
        }
        try {
            URI o = new URI(origin);
            URI own = new URI("http://" + host);
            return "http".equalsIgnoreCase(o.getScheme())
                    && o.getHost() != null
                    && own.getHost() != null
                    && o.getHost().equalsIgnoreCase(own.getHost())
                    && port(o) == port(own)
                    && (o.getRawPath() == null || o.getRawPath().isEmpty());
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private static int port(URI uri) {
        return uri.getPort() == -1 ? 80 : uri.getPort();
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }
}
