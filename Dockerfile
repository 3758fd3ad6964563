# syntax=docker/dockerfile:1
# The Kaboom bot (`kaboom serve`) in a container, for hosts without Rust.
# Build: docker build -t kaboom .    (or: podman build -t kaboom .)
# Run:   docker compose up -d        (compose.yaml; docs/hosting.md, "Running in a container")
#
# Not built by this project's CI: CI reaches crates.io but no container registry, so the
# base images below cannot be pulled there (checked 2026-11-28).

# Build stage: the official Rust image (Debian 12 "bookworm", with the C compiler the
# bundled SQLite needs). Rust 1.95 is the workspace's rust-version.
FROM docker.io/library/rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
# The crates.io registry and the target directory are cache mounts, so a rebuild after
# `git pull` downloads and compiles only what changed. The target directory does not
# outlive this step, so the binary is copied out of it here.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/usr/local/cargo/git \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked -p kaboom \
    && install -m 755 target/release/kaboom /usr/local/bin/kaboom

# Runtime stage: the binary alone on Debian 12's slim image (the same glibc as the build).
# It links only libc, libm and libgcc_s, all in the base image: SQLite is compiled in,
# TLS to Discord is rustls with Mozilla's root certificates compiled in (webpki-roots, via
# serenity's and reqwest's rustls features; no OpenSSL, and no ca-certificates needed),
# and the board images' font (Noto Sans) and piece drawings are embedded in the renderer.
FROM docker.io/library/debian:bookworm-slim
# A fixed uid, so a bind-mounted /data can be given to it: chown 10001 DIR.
RUN groupadd --gid 10001 kaboom \
    && useradd --uid 10001 --gid kaboom --home-dir /data --no-create-home \
       --shell /usr/sbin/nologin kaboom \
    && install -d -m 700 -o kaboom -g kaboom /data
COPY --from=build /usr/local/bin/kaboom /usr/local/bin/kaboom
USER kaboom
# The games live in /data (the SQLite file and its -wal and -shm files). A new named
# volume starts as a copy of this directory, owned by the kaboom user.
WORKDIR /data
VOLUME /data
ENV DATABASE_URL=sqlite:///data/kaboom.db
# No HEALTHCHECK: `kaboom` has no health subcommand and listens on no port. When it exits
# (e.g. on a refused token), the restart policy (compose.yaml) starts it again.
# It stops at SIGTERM (`docker stop`) and exits 0; --init (compose.yaml: init: true) adds
# a small init process as PID 1 that passes signals on.
ENTRYPOINT ["kaboom"]
CMD ["serve"]
