//! Shared 8x8 chess machinery (bitboards, move generation, FEN, SAN) for Atomic, Beirut and Nuke.
