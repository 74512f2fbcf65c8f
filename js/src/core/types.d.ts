// biome-ignore-all lint/suspicious/noExplicitAny: the model API passes arbitrary values through
// Types shared by the kit and every widget: the model API anywidget hands a front end,
// typed by the traits of one widget (declared once per widget in its model.js).

/** A model event callback (change:<trait>, msg:custom, ...). */
export type Callback = (...args: any[]) => void;

/** The anywidget model, as tbnb uses it, typed by a widget's synced traits `T`. */
export interface Model<T> {
  get<K extends keyof T & string>(key: K): T[K];
  set<K extends keyof T & string>(key: K, value: T[K]): void;
  save_changes(): void;
  on(event: string, callback: Callback): void;
  off(event?: string | null, callback?: Callback | null): void;
  send(content: unknown, callbacks?: unknown, buffers?: ArrayBuffer[] | ArrayBufferView[]): void;
}

/** A model of unknown traits (kit code that works for any widget). */
export type AnyModel = Model<Record<string, any>>;

/** A numpy array in trait state (Python: tbnb.widgets.serializers.array_to_json). */
export interface EncodedArray {
  view: DataView | ArrayBuffer | ArrayBufferView;
  dtype: string;
  shape: number[];
}

export type TypedArray =
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array;

/** Numbers by index: a typed array or a plain array. */
export type Numbers = ArrayLike<number>;
