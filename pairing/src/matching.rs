//! Maximum-weight matching in general graphs: Edmonds' blossom algorithm with the primal-dual
//! method (Galil, "Efficient algorithms for finding maximum matching in graphs", ACM
//! Computing Surveys 18, 1986), O(n³). Written for this crate.
//!
//! Weights are any ordered group ([`Weight`]): the Dutch system uses lexicographic vectors
//! ([`LexWeight`]) whose components are its criteria in priority order, so that maximizing
//! the total weight applies the criteria one after the other.

use std::cmp::Ordering;
use std::ops::{Add, Sub};

/// An ordered abelian group in which the algorithm computes. Edge weights are doubled
/// internally, so that halving a slack between two S-vertices stays exact.
pub(crate) trait Weight: Copy + Ord + Add<Output = Self> + Sub<Output = Self> {
    /// The neutral element.
    fn zero() -> Self;
    /// Exact half of an even value.
    fn half(self) -> Self;
}

impl Weight for i64 {
    fn zero() -> i64 {
        0
    }
    fn half(self) -> i64 {
        debug_assert!(self % 2 == 0, "halving an odd value");
        self / 2
    }
}

/// The number of components of a [`LexWeight`].
pub(crate) const LEX_COMPONENTS: usize = 128;

/// A vector of integers compared lexicographically (component 0 first), added component by
/// component.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct LexWeight(pub [i64; LEX_COMPONENTS]);

impl Ord for LexWeight {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.cmp(&other.0)
    }
}

impl PartialOrd for LexWeight {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Add for LexWeight {
    type Output = LexWeight;
    fn add(mut self, other: LexWeight) -> LexWeight {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += b;
        }
        self
    }
}

impl Sub for LexWeight {
    type Output = LexWeight;
    fn sub(mut self, other: LexWeight) -> LexWeight {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a -= b;
        }
        self
    }
}

impl Weight for LexWeight {
    fn zero() -> LexWeight {
        LexWeight([0; LEX_COMPONENTS])
    }
    fn half(mut self) -> LexWeight {
        for a in &mut self.0 {
            debug_assert!(*a % 2 == 0, "halving an odd value");
            *a /= 2;
        }
        self
    }
}

const NONE: usize = usize::MAX;

/// A maximum-weight matching of the graph with `vertices` vertices and the given edges
/// `(u, v, weight)`: for each vertex, its mate or `None`. Edges of weight ≤ 0 may be left out
/// of the matching.
pub(crate) fn max_weight_matching<W: Weight>(
    vertices: usize,
    edges: &[(usize, usize, W)],
) -> Vec<Option<usize>> {
    if edges.is_empty() {
        return vec![None; vertices];
    }
    let doubled: Vec<(usize, usize, W)> = edges.iter().map(|&(u, v, w)| (u, v, w + w)).collect();
    let mut state = State::new(vertices, doubled);
    state.solve();
    state
        .mate
        .iter()
        .map(|&p| {
            if p == NONE {
                None
            } else {
                Some(state.endpoint(p))
            }
        })
        .collect()
}

struct State<W: Weight> {
    n: usize,
    edges: Vec<(usize, usize, W)>,
    /// For each vertex, the endpoints `p` of its edges on the other side (edge `p / 2`).
    neighbour_ends: Vec<Vec<usize>>,
    /// For each vertex, the remote endpoint of its matched edge, or NONE.
    mate: Vec<usize>,
    /// Per top-level blossom (and vertex): 0 free, 1 S, 2 T; bit 4 marks during scans.
    label: Vec<u8>,
    label_end: Vec<usize>,
    in_blossom: Vec<usize>,
    blossom_parent: Vec<usize>,
    blossom_children: Vec<Vec<usize>>,
    blossom_base: Vec<usize>,
    blossom_ends: Vec<Vec<usize>>,
    best_edge: Vec<usize>,
    blossom_best_edges: Vec<Option<Vec<usize>>>,
    unused_blossoms: Vec<usize>,
    dual: Vec<W>,
    allowed: Vec<bool>,
    queue: Vec<usize>,
}

impl<W: Weight> State<W> {
    fn new(n: usize, edges: Vec<(usize, usize, W)>) -> State<W> {
        let max_weight = edges
            .iter()
            .map(|e| e.2)
            .fold(W::zero(), |a, b| if b > a { b } else { a });
        let mut neighbour_ends = vec![Vec::new(); n];
        for (k, &(i, j, _)) in edges.iter().enumerate() {
            neighbour_ends[i].push(2 * k + 1);
            neighbour_ends[j].push(2 * k);
        }
        let mut dual = vec![max_weight; n];
        dual.extend(std::iter::repeat_n(W::zero(), n));
        let edge_count = edges.len();
        State {
            n,
            edges,
            neighbour_ends,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            label_end: vec![NONE; 2 * n],
            in_blossom: (0..n).collect(),
            blossom_parent: vec![NONE; 2 * n],
            blossom_children: vec![Vec::new(); 2 * n],
            blossom_base: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            blossom_ends: vec![Vec::new(); 2 * n],
            best_edge: vec![NONE; 2 * n],
            blossom_best_edges: vec![None; 2 * n],
            unused_blossoms: (n..2 * n).collect(),
            dual,
            allowed: vec![false; edge_count],
            queue: Vec::new(),
        }
    }

    fn endpoint(&self, p: usize) -> usize {
        let (i, j, _) = self.edges[p / 2];
        if p.is_multiple_of(2) { i } else { j }
    }

    /// The slack of edge `k`: `dual(i) + dual(j) - 2 weight(k)`.
    fn slack(&self, k: usize) -> W {
        let (i, j, w) = self.edges[k];
        self.dual[i] + self.dual[j] - w - w
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &child in &self.blossom_children[b] {
                self.leaves(child, out);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.leaves(b, &mut out);
        out
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.in_blossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.label_end[w] = p;
        self.label_end[b] = p;
        self.best_edge[w] = NONE;
        self.best_edge[b] = NONE;
        if t == 1 {
            let leaves = self.leaves_of(b);
            self.queue.extend(leaves);
        } else {
            let base = self.blossom_base[b];
            let mate = self.mate[base];
            self.assign_label(self.endpoint(mate), 1, mate ^ 1);
        }
    }

    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.in_blossom[v];
            if self.label[b] & 4 != 0 {
                base = self.blossom_base[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.label_end[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint(self.label_end[b]);
                b = self.in_blossom[v];
                v = self.endpoint(self.label_end[b]);
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.in_blossom[base];
        let mut bv = self.in_blossom[v];
        let mut bw = self.in_blossom[w];
        let b = self.unused_blossoms.pop().expect("at most n blossoms");
        self.blossom_base[b] = base;
        self.blossom_parent[b] = NONE;
        self.blossom_parent[bb] = b;
        let mut path = Vec::new();
        let mut ends = Vec::new();
        while bv != bb {
            self.blossom_parent[bv] = b;
            path.push(bv);
            ends.push(self.label_end[bv]);
            v = self.endpoint(self.label_end[bv]);
            bv = self.in_blossom[v];
        }
        path.push(bb);
        path.reverse();
        ends.reverse();
        ends.push(2 * k);
        while bw != bb {
            self.blossom_parent[bw] = b;
            path.push(bw);
            ends.push(self.label_end[bw] ^ 1);
            w = self.endpoint(self.label_end[bw]);
            bw = self.in_blossom[w];
        }
        self.label[b] = 1;
        self.label_end[b] = self.label_end[bb];
        self.dual[b] = W::zero();
        self.blossom_children[b] = path.clone();
        self.blossom_ends[b] = ends;
        for leaf in self.leaves_of(b) {
            if self.label[self.in_blossom[leaf]] == 2 {
                self.queue.push(leaf);
            }
            self.in_blossom[leaf] = b;
        }
        let mut best_to = vec![NONE; 2 * self.n];
        for &child in &path {
            let lists: Vec<Vec<usize>> = match self.blossom_best_edges[child].take() {
                Some(list) => vec![list],
                None => self
                    .leaves_of(child)
                    .into_iter()
                    .map(|leaf| self.neighbour_ends[leaf].iter().map(|p| p / 2).collect())
                    .collect(),
            };
            for list in lists {
                for k in list {
                    let (mut i, mut j, _) = self.edges[k];
                    if self.in_blossom[j] == b {
                        std::mem::swap(&mut i, &mut j);
                    }
                    let _ = i;
                    let bj = self.in_blossom[j];
                    if bj != b
                        && self.label[bj] == 1
                        && (best_to[bj] == NONE || self.slack(k) < self.slack(best_to[bj]))
                    {
                        best_to[bj] = k;
                    }
                }
            }
            self.best_edge[child] = NONE;
        }
        let best: Vec<usize> = best_to.into_iter().filter(|&k| k != NONE).collect();
        self.best_edge[b] = NONE;
        for &k in &best {
            if self.best_edge[b] == NONE || self.slack(k) < self.slack(self.best_edge[b]) {
                self.best_edge[b] = k;
            }
        }
        self.blossom_best_edges[b] = Some(best);
    }

    fn expand_blossom(&mut self, b: usize, end_stage: bool) {
        let children = self.blossom_children[b].clone();
        for &s in &children {
            self.blossom_parent[s] = NONE;
            if s < self.n {
                self.in_blossom[s] = s;
            } else if end_stage && self.dual[s] == W::zero() {
                self.expand_blossom(s, end_stage);
            } else {
                for leaf in self.leaves_of(s) {
                    self.in_blossom[leaf] = s;
                }
            }
        }
        if !end_stage && self.label[b] == 2 {
            let entry_child = self.in_blossom[self.endpoint(self.label_end[b] ^ 1)];
            let len = children.len() as isize;
            let mut j = children
                .iter()
                .position(|&c| c == entry_child)
                .expect("entry child") as isize;
            let (step, trick): (isize, usize) = if j & 1 == 1 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let at = |j: isize| j.rem_euclid(len) as usize;
            let mut p = self.label_end[b];
            while j != 0 {
                let remote = self.endpoint(p ^ 1);
                self.label[remote] = 0;
                let q = self.blossom_ends[b][at(j - trick as isize)] ^ trick ^ 1;
                let other = self.endpoint(q);
                self.label[other] = 0;
                self.assign_label(remote, 2, p);
                self.allowed[self.blossom_ends[b][at(j - trick as isize)] / 2] = true;
                j += step;
                p = self.blossom_ends[b][at(j - trick as isize)] ^ trick;
                self.allowed[p / 2] = true;
                j += step;
            }
            let bv = children[at(j)];
            let remote = self.endpoint(p ^ 1);
            self.label[remote] = 2;
            self.label[bv] = 2;
            self.label_end[remote] = p;
            self.label_end[bv] = p;
            self.best_edge[bv] = NONE;
            j += step;
            while children[at(j)] != entry_child {
                let bv = children[at(j)];
                if self.label[bv] == 1 {
                    j += step;
                    continue;
                }
                let labelled = self.leaves_of(bv).into_iter().find(|&v| self.label[v] != 0);
                if let Some(v) = labelled {
                    self.label[v] = 0;
                    let base_mate = self.mate[self.blossom_base[bv]];
                    let remote = self.endpoint(base_mate);
                    self.label[remote] = 0;
                    self.assign_label(v, 2, self.label_end[v]);
                }
                j += step;
            }
        }
        self.label[b] = u8::MAX;
        self.label_end[b] = NONE;
        self.blossom_children[b].clear();
        self.blossom_ends[b].clear();
        self.blossom_base[b] = NONE;
        self.blossom_best_edges[b] = None;
        self.best_edge[b] = NONE;
        self.unused_blossoms.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossom_parent[t] != b {
            t = self.blossom_parent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.blossom_children[b].len() as isize;
        let i = self.blossom_children[b]
            .iter()
            .position(|&c| c == t)
            .expect("child") as isize;
        let mut j = i;
        let (step, trick): (isize, usize) = if i & 1 == 1 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        let at = |j: isize| j.rem_euclid(len) as usize;
        while j != 0 {
            j += step;
            let t = self.blossom_children[b][at(j)];
            let p = self.blossom_ends[b][at(j - trick as isize)] ^ trick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint(p));
            }
            j += step;
            let t = self.blossom_children[b][at(j)];
            if t >= self.n {
                self.augment_blossom(t, self.endpoint(p ^ 1));
            }
            let (a, c) = (self.endpoint(p), self.endpoint(p ^ 1));
            self.mate[a] = p ^ 1;
            self.mate[c] = p;
        }
        let i = i as usize;
        self.blossom_children[b].rotate_left(i);
        self.blossom_ends[b].rotate_left(i);
        self.blossom_base[b] = self.blossom_base[self.blossom_children[b][0]];
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.in_blossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.label_end[bs] == NONE {
                    break;
                }
                let t = self.endpoint(self.label_end[bs]);
                let bt = self.in_blossom[t];
                s = self.endpoint(self.label_end[bt]);
                let j = self.endpoint(self.label_end[bt] ^ 1);
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.label_end[bt];
                p = self.label_end[bt] ^ 1;
            }
        }
    }

    fn solve(&mut self) {
        let n = self.n;
        for _ in 0..n {
            self.label.iter_mut().for_each(|l| *l = 0);
            self.best_edge.iter_mut().for_each(|e| *e = NONE);
            for b in n..2 * n {
                self.blossom_best_edges[b] = None;
            }
            self.allowed.iter_mut().for_each(|a| *a = false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.in_blossom[v]] == 0 {
                    self.assign_label(v, 1, NONE);
                }
            }
            let mut augmented = false;
            loop {
                while let Some(v) = if augmented { None } else { self.queue.pop() } {
                    for index in 0..self.neighbour_ends[v].len() {
                        let p = self.neighbour_ends[v][index];
                        let k = p / 2;
                        let w = self.endpoint(p);
                        if self.in_blossom[v] == self.in_blossom[w] {
                            continue;
                        }
                        let mut k_slack = W::zero();
                        if !self.allowed[k] {
                            k_slack = self.slack(k);
                            if k_slack <= W::zero() {
                                self.allowed[k] = true;
                            }
                        }
                        if self.allowed[k] {
                            if self.label[self.in_blossom[w]] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[self.in_blossom[w]] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.label_end[w] = p ^ 1;
                            }
                        } else if self.label[self.in_blossom[w]] == 1 {
                            let b = self.in_blossom[v];
                            if self.best_edge[b] == NONE || k_slack < self.slack(self.best_edge[b])
                            {
                                self.best_edge[b] = k;
                            }
                        } else if self.label[w] == 0
                            && (self.best_edge[w] == NONE
                                || k_slack < self.slack(self.best_edge[w]))
                        {
                            self.best_edge[w] = k;
                        }
                    }
                }
                if augmented {
                    break;
                }
                // Delta 1: the smallest vertex dual (ends the algorithm when it reaches 0).
                let mut delta_type = 1;
                let mut delta = (0..n).map(|v| self.dual[v]).min().expect("vertices");
                let mut delta_edge = NONE;
                let mut delta_blossom = NONE;
                for v in 0..n {
                    if self.label[self.in_blossom[v]] == 0 && self.best_edge[v] != NONE {
                        let d = self.slack(self.best_edge[v]);
                        if d < delta {
                            delta = d;
                            delta_type = 2;
                            delta_edge = self.best_edge[v];
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.blossom_parent[b] == NONE
                        && self.label[b] == 1
                        && self.best_edge[b] != NONE
                    {
                        let d = self.slack(self.best_edge[b]).half();
                        if d < delta {
                            delta = d;
                            delta_type = 3;
                            delta_edge = self.best_edge[b];
                        }
                    }
                }
                for b in n..2 * n {
                    if self.blossom_base[b] != NONE
                        && self.blossom_parent[b] == NONE
                        && self.label[b] == 2
                        && self.dual[b] < delta
                    {
                        delta = self.dual[b];
                        delta_type = 4;
                        delta_blossom = b;
                    }
                }
                for v in 0..n {
                    match self.label[self.in_blossom[v]] {
                        1 => self.dual[v] = self.dual[v] - delta,
                        2 => self.dual[v] = self.dual[v] + delta,
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.blossom_base[b] != NONE && self.blossom_parent[b] == NONE {
                        match self.label[b] {
                            1 => self.dual[b] = self.dual[b] + delta,
                            2 => self.dual[b] = self.dual[b] - delta,
                            _ => {}
                        }
                    }
                }
                match delta_type {
                    1 => break,
                    2 => {
                        self.allowed[delta_edge] = true;
                        let (mut i, j, _) = self.edges[delta_edge];
                        if self.label[self.in_blossom[i]] == 0 {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    3 => {
                        self.allowed[delta_edge] = true;
                        let (i, _, _) = self.edges[delta_edge];
                        self.queue.push(i);
                    }
                    _ => self.expand_blossom(delta_blossom, false),
                }
            }
            if !augmented {
                break;
            }
            for b in n..2 * n {
                if self.blossom_parent[b] == NONE
                    && self.blossom_base[b] != NONE
                    && self.label[b] == 1
                    && self.dual[b] == W::zero()
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The best total weight over all matchings, by exhaustive search.
    fn brute_force(n: usize, edges: &[(usize, usize, i64)]) -> i64 {
        fn go(v: usize, used: &mut Vec<bool>, n: usize, w: &[Vec<Option<i64>>]) -> i64 {
            if v == n {
                return 0;
            }
            if used[v] {
                return go(v + 1, used, n, w);
            }
            used[v] = true;
            let mut best = go(v + 1, used, n, w);
            for u in v + 1..n {
                if !used[u]
                    && let Some(weight) = w[v][u]
                {
                    used[u] = true;
                    best = best.max(weight + go(v + 1, used, n, w));
                    used[u] = false;
                }
            }
            used[v] = false;
            best
        }
        let mut w = vec![vec![None; n]; n];
        for &(a, b, weight) in edges {
            w[a][b] = Some(weight);
            w[b][a] = Some(weight);
        }
        go(0, &mut vec![false; n], n, &w)
    }

    #[test]
    fn matches_exhaustive_search_on_small_random_graphs() {
        let mut seed: u64 = 12345;
        let mut next = move |bound: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % bound
        };
        for _ in 0..400 {
            let n = 2 + next(11) as usize;
            let mut edges = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if next(3) > 0 {
                        edges.push((a, b, next(20) as i64 - 3));
                    }
                }
            }
            let mate = max_weight_matching(n, &edges);
            let mut total = 0;
            for (a, m) in mate.iter().enumerate() {
                if let Some(b) = *m {
                    assert_eq!(mate[b], Some(a));
                    if a < b {
                        total += edges
                            .iter()
                            .find(|e| (e.0 == a && e.1 == b) || (e.0 == b && e.1 == a))
                            .unwrap()
                            .2;
                    }
                }
            }
            assert_eq!(total, brute_force(n, &edges), "{n} {edges:?}");
        }
    }
}
