// The part of d3-scale the kit calls, typed: the package ships no types, and
// @types/d3-scale (with @types/d3-time) would be two dev dependencies for three functions.
declare module "d3-scale" {
  /** A continuous scale from domain values `D` to range numbers. */
  interface ContinuousScale<D> {
    (value: D): number;
    invert(value: number): D;
    domain(): D[];
    domain(values: D[]): this;
    range(): number[];
    range(values: number[]): this;
    nice(count?: number): this;
    clamp(clamp: boolean): this;
    ticks(count?: number): D[];
    tickFormat(count?: number, specifier?: string): (value: D) => string;
  }
  export function scaleLinear(): ContinuousScale<number>;
  export function scaleLog(): ContinuousScale<number> & { base(base: number): ContinuousScale<number> };
  export function scaleTime(): ContinuousScale<Date>;
}
