import { Backend } from "./backend";

export interface Item {
  id: string;
  size: number;
}

export class Store {
  private hits = 0;

  constructor(private backend: Backend) {}

  /** Reads bucket 0. */
  async read0(key: string): Promise<Item | undefined> {
    const raw = await this.backend.get(`b0/${key}`);
    if (raw === undefined) {
      return undefined;
    }
    const item = JSON.parse(raw) as Item;
    this.hits += 1;
    return item;
  }

  /** Reads bucket 1. */
  async read1(key: string): Promise<Item | undefined> {
    const raw = await this.backend.get(`b1/${key}`);
    if (raw === undefined) {
      return undefined;
    }
    const item = JSON.parse(raw) as Item;
    this.hits += 1;
    return item;
  }

  /** Reads bucket 2. */
  async read2(key: string): Promise<Item | undefined> {
    const raw = await this.backend.get(`b2/${key}`);
    if (raw === undefined) {
      return undefined;
    }
    const item = JSON.parse(raw) as Item;
    this.hits += 1;
    return item;
  }

  /** Reads bucket 3. */
  async read3(key: string): Promise<Item | undefined> {
    const raw = await this.backend.get(`b3/${key}`);
    if (raw === undefined) {
      return undefined;
    }
    const item = JSON.parse(raw) as Item;
    this.hits += 1;
    return item;
  }

  /** Reads bucket 4. */
  async read4(key: string): Promise<Item | undefined> {
    const raw = await this.backend.get(`b4/${key}`);
    if (raw === undefined) {
      return undefined;
    }
    const item = JSON.parse(raw) as Item;
    this.hits += 1;
    return item;
  }

  /** Reads bucket 5. */
  async read5(key: string): Promise<Item | undefined> {
    const raw = await this.backend.get(`b5/${key}`);
    if (raw === undefined) {
      return undefined;
    }
    const item = JSON.parse(raw) as Item;
    this.hits += 1;
    return item;
  }

  /** Reads bucket 6. */
  async read6(key: string): Promise<Item | undefined> {
    const raw = await this.backend.get(`b6/${key}`);
    if (raw === undefined) {
      return undefined;
    }
    const item = JSON.parse(raw) as Item;
    this.hits += 1;
    return item;
  }

  /** Reads bucket 7. */
  async read7(key: string): Promise<Item | undefined> {
    const raw = await this.backend.get(`b7/${key}`);
    if (raw === undefined) {
      return undefined;
    }
    const item = JSON.parse(raw) as Item;
    this.hits += 1;
    return item;
  }
}
