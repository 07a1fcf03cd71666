//! Go's `slices.SortFunc` (pattern-defeating quicksort, Go 1.26), step
//! for step. It is not stable, and where the order of equal elements is
//! visible in the output (gofmt's import dedupe decides which duplicate's
//! line is merged away) only the same algorithm gives the same bytes.

use std::cmp::Ordering;

const MAX_INSERTION: usize = 12;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Hint {
    Unknown,
    Increasing,
    Decreasing,
}

/// Sorts `data` exactly as Go's `slices.SortFunc(data, cmp)` does.
pub(crate) fn sort_by<T>(data: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    let n = data.len();
    let limit = usize::BITS - n.leading_zeros();
    let mut less = |a: &T, b: &T| cmp(a, b) == Ordering::Less;
    pdqsort(data, 0, n, limit as usize, &mut less);
}

fn insertion_sort<T>(data: &mut [T], a: usize, b: usize, less: &mut impl FnMut(&T, &T) -> bool) {
    for i in a + 1..b {
        let mut j = i;
        while j > a && less(&data[j], &data[j - 1]) {
            data.swap(j, j - 1);
            j -= 1;
        }
    }
}

fn sift_down<T>(
    data: &mut [T],
    lo: usize,
    hi: usize,
    first: usize,
    less: &mut impl FnMut(&T, &T) -> bool,
) {
    let mut root = lo;
    loop {
        let mut child = 2 * root + 1;
        if child >= hi {
            return;
        }
        if child + 1 < hi && less(&data[first + child], &data[first + child + 1]) {
            child += 1;
        }
        if !less(&data[first + root], &data[first + child]) {
            return;
        }
        data.swap(first + root, first + child);
        root = child;
    }
}

fn heap_sort<T>(data: &mut [T], a: usize, b: usize, less: &mut impl FnMut(&T, &T) -> bool) {
    let first = a;
    let hi = b - a;
    for i in (0..=(hi.saturating_sub(1)) / 2).rev() {
        sift_down(data, i, hi, first, less);
    }
    for i in (0..hi).rev() {
        data.swap(first, first + i);
        sift_down(data, 0, i, first, less);
    }
}

fn pdqsort<T>(
    data: &mut [T],
    mut a: usize,
    mut b: usize,
    mut limit: usize,
    less: &mut impl FnMut(&T, &T) -> bool,
) {
    let mut was_balanced = true;
    let mut was_partitioned = true;
    loop {
        let length = b - a;
        if length <= MAX_INSERTION {
            insertion_sort(data, a, b, less);
            return;
        }
        if limit == 0 {
            heap_sort(data, a, b, less);
            return;
        }
        if !was_balanced {
            break_patterns(data, a, b);
            limit -= 1;
        }
        let (mut pivot, mut hint) = choose_pivot(data, a, b, less);
        if hint == Hint::Decreasing {
            data[a..b].reverse();
            pivot = (b - 1) - (pivot - a);
            hint = Hint::Increasing;
        }
        if was_balanced
            && was_partitioned
            && hint == Hint::Increasing
            && partial_insertion_sort(data, a, b, less)
        {
            return;
        }
        if a > 0 && !less(&data[a - 1], &data[pivot]) {
            a = partition_equal(data, a, b, pivot, less);
            continue;
        }
        let (mid, already) = partition(data, a, b, pivot, less);
        was_partitioned = already;
        let (left, right) = (mid - a, b - mid);
        let threshold = length / 8;
        if left < right {
            was_balanced = left >= threshold;
            pdqsort(data, a, mid, limit, less);
            a = mid + 1;
        } else {
            was_balanced = right >= threshold;
            pdqsort(data, mid + 1, b, limit, less);
            b = mid;
        }
    }
}

fn partition<T>(
    data: &mut [T],
    a: usize,
    b: usize,
    pivot: usize,
    less: &mut impl FnMut(&T, &T) -> bool,
) -> (usize, bool) {
    data.swap(a, pivot);
    // i and j are inclusive bounds; j may step to a, never below it.
    let (mut i, mut j) = (a + 1, b - 1);
    while i <= j && less(&data[i], &data[a]) {
        i += 1;
    }
    while i <= j && !less(&data[j], &data[a]) {
        j -= 1;
    }
    if i > j {
        data.swap(j, a);
        return (j, true);
    }
    data.swap(i, j);
    i += 1;
    j -= 1;
    loop {
        while i <= j && less(&data[i], &data[a]) {
            i += 1;
        }
        while i <= j && !less(&data[j], &data[a]) {
            j -= 1;
        }
        if i > j {
            break;
        }
        data.swap(i, j);
        i += 1;
        j -= 1;
    }
    data.swap(j, a);
    (j, false)
}

fn partition_equal<T>(
    data: &mut [T],
    a: usize,
    b: usize,
    pivot: usize,
    less: &mut impl FnMut(&T, &T) -> bool,
) -> usize {
    data.swap(a, pivot);
    let (mut i, mut j) = (a + 1, b - 1);
    loop {
        while i <= j && !less(&data[a], &data[i]) {
            i += 1;
        }
        while i <= j && less(&data[a], &data[j]) {
            j -= 1;
        }
        if i > j {
            break;
        }
        data.swap(i, j);
        i += 1;
        j -= 1;
    }
    i
}

fn partial_insertion_sort<T>(
    data: &mut [T],
    a: usize,
    b: usize,
    less: &mut impl FnMut(&T, &T) -> bool,
) -> bool {
    const MAX_STEPS: usize = 5;
    const SHORTEST_SHIFTING: usize = 50;
    let mut i = a + 1;
    for _ in 0..MAX_STEPS {
        while i < b && !less(&data[i], &data[i - 1]) {
            i += 1;
        }
        if i == b {
            return true;
        }
        if b - a < SHORTEST_SHIFTING {
            return false;
        }
        data.swap(i, i - 1);
        if i - a >= 2 {
            let mut j = i - 1;
            while j >= 1 {
                if !less(&data[j], &data[j - 1]) {
                    break;
                }
                data.swap(j, j - 1);
                j -= 1;
            }
        }
        if b - i >= 2 {
            for j in i + 1..b {
                if !less(&data[j], &data[j - 1]) {
                    break;
                }
                data.swap(j, j - 1);
            }
        }
    }
    false
}

fn break_patterns<T>(data: &mut [T], a: usize, b: usize) {
    let length = b - a;
    if length < 8 {
        return;
    }
    let mut random = length as u64;
    let modulus = 1usize << (usize::BITS - length.leading_zeros());
    let mid = a + (length / 4) * 2;
    for idx in mid - 1..=mid + 1 {
        random ^= random << 13;
        random ^= random >> 7;
        random ^= random << 17;
        let mut other = (random as usize) & (modulus - 1);
        if other >= length {
            other -= length;
        }
        data.swap(idx, a + other);
    }
}

fn choose_pivot<T>(
    data: &mut [T],
    a: usize,
    b: usize,
    less: &mut impl FnMut(&T, &T) -> bool,
) -> (usize, Hint) {
    const SHORTEST_NINTHER: usize = 50;
    const MAX_SWAPS: usize = 4 * 3;
    let l = b - a;
    let mut swaps = 0;
    let mut i = a + l / 4;
    let mut j = a + l / 4 * 2;
    let mut k = a + l / 4 * 3;
    if l >= 8 {
        if l >= SHORTEST_NINTHER {
            i = median(data, i - 1, i, i + 1, &mut swaps, less);
            j = median(data, j - 1, j, j + 1, &mut swaps, less);
            k = median(data, k - 1, k, k + 1, &mut swaps, less);
        }
        j = median(data, i, j, k, &mut swaps, less);
    }
    let hint = match swaps {
        0 => Hint::Increasing,
        MAX_SWAPS => Hint::Decreasing,
        _ => Hint::Unknown,
    };
    (j, hint)
}

fn order2<T>(
    data: &[T],
    a: usize,
    b: usize,
    swaps: &mut usize,
    less: &mut impl FnMut(&T, &T) -> bool,
) -> (usize, usize) {
    if less(&data[b], &data[a]) {
        *swaps += 1;
        return (b, a);
    }
    (a, b)
}

fn median<T>(
    data: &[T],
    a: usize,
    b: usize,
    c: usize,
    swaps: &mut usize,
    less: &mut impl FnMut(&T, &T) -> bool,
) -> usize {
    let (a, b) = order2(data, a, b, swaps, less);
    let (b, _) = order2(data, b, c, swaps, less);
    let (_, b) = order2(data, a, b, swaps, less);
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_like_a_sort() {
        let mut seed = 0x9e3779b97f4a7c15u64;
        for n in [0, 1, 2, 11, 12, 13, 49, 50, 51, 200, 1000, 5000] {
            for modulo in [3u64, 1000, u64::MAX] {
                let mut v: Vec<u64> = (0..n)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        seed % modulo
                    })
                    .collect();
                let mut want = v.clone();
                want.sort();
                sort_by(&mut v, |a, b| a.cmp(b));
                assert_eq!(v, want, "n={n} mod={modulo}");
                let mut desc: Vec<u64> = (0..n as u64).rev().collect();
                sort_by(&mut desc, |a, b| a.cmp(b));
                assert!(desc.windows(2).all(|w| w[0] <= w[1]));
            }
        }
    }

    #[test]
    fn short_slices_keep_equal_elements_in_order() {
        let mut v = vec![(1, 'a'), (0, 'b'), (1, 'c'), (0, 'd')];
        sort_by(&mut v, |a, b| a.0.cmp(&b.0));
        assert_eq!(v, vec![(0, 'b'), (0, 'd'), (1, 'a'), (1, 'c')]);
    }
}
