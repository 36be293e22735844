;; The source of data/vector-scan.wasm (built by `node scripts/build-wasm.mjs`, checked against this
;; file by tests/vector-scan.test.ts): the dot product of one query with every row of a matrix, for
;; src/knowledge/vector-scan.ts. Four float32 of a row at a time, each widened to float64 and
;; multiplied by the query's float64 in two 2-lane sums, the same products and the same order of
;; additions as the JavaScript fallback there, so both give the same numbers to the last bit.
;;
;; The memory is the caller's: the query (dims × f64) at $query, the rows ($rows × dims × f32) at
;; $matrix, and $rows f64 written at $out. $dims is a multiple of 4.
(module
  (import "lore" "memory" (memory 1))
  (func (export "scan") (param $query i32) (param $matrix i32) (param $rows i32) (param $dims i32) (param $out i32)
    (local $row i32) (local $end i32) (local $at i32) (local $four v128) (local $even v128) (local $odd v128)
    (local.set $row (local.get $matrix))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $rows) (i32.const 3))))
    (block $done
      (loop $each_row
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        ;; $even sums dimensions 4k and 4k+1, $odd 4k+2 and 4k+3.
        (local.set $even (v128.const f64x2 0 0))
        (local.set $odd (v128.const f64x2 0 0))
        (local.set $at (i32.const 0))
        (block $row_done
          (loop $each_four
            (br_if $row_done (i32.ge_u (local.get $at) (i32.shl (local.get $dims) (i32.const 2))))
            (local.set $four (v128.load (i32.add (local.get $row) (local.get $at))))
            (local.set $even (f64x2.add (local.get $even)
              (f64x2.mul (v128.load (i32.add (local.get $query) (i32.shl (local.get $at) (i32.const 1))))
                         (f64x2.promote_low_f32x4 (local.get $four)))))
            (local.set $odd (f64x2.add (local.get $odd)
              (f64x2.mul (v128.load offset=16 (i32.add (local.get $query) (i32.shl (local.get $at) (i32.const 1))))
                         (f64x2.promote_low_f32x4
                           (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $four) (local.get $four))))))
            (local.set $at (i32.add (local.get $at) (i32.const 16)))
            (br $each_four)))
        ;; (4k sums + 4k+2 sums) + (4k+1 sums + 4k+3 sums)
        (local.set $even (f64x2.add (local.get $even) (local.get $odd)))
        (f64.store (local.get $out)
          (f64.add (f64x2.extract_lane 0 (local.get $even)) (f64x2.extract_lane 1 (local.get $even))))
        (local.set $row (i32.add (local.get $row) (i32.shl (local.get $dims) (i32.const 2))))
        (local.set $out (i32.add (local.get $out) (i32.const 8)))
        (br $each_row))))
)
