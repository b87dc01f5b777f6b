import { normalisePartNumber } from '@partsyard/common';
import type { DemoNumber, Family } from './demoCatalog';
import { demoBrands, type DemoModel, type MakeName } from './demoCatalogData';

/**
 * The grown demo's randomness and numbers (demoCatalog.ts): a seeded generator, and part numbers in their makers'
 * formats (OEM numbers, EANs with their check digit), each given once.
 */

/** The demo's first numbers: no generated number starts like them, so looking them up finds what it always did. */
const reservedPrefixes = ['FA185', '06455MEN', '520VX3', 'CR9E', '087295'];

/** mulberry32: a small seeded generator, the same sequence on every run. */
export function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  return {
    next,
    int,
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)],
    digits: (n: number) => Array.from({ length: n }, () => String(int(0, 9))).join(''),
    letter: (from = 'ABCDEFGHJKLMNPRSTUVWXYZ') => from[int(0, from.length - 1)],
  };
}

/** The EAN-13 check digit of twelve digits (GS1: weights 1 and 3 from the left). */
export function ean13CheckDigit(twelve: string): number {
  const sum = [...twelve].reduce((total, digit, i) => total + Number(digit) * (i % 2 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10;
}

/** The group of digits that names a family in each maker's OEM numbers. */
// prettier-ignore
const oemFamilies: Record<MakeName, Partial<Record<Family, string>>> = {
  Honda: { padsFront: '06455', padsRear: '06435', disc: '45251', oil: '15410', air: '17210', clutch: '22201', gasket: '06112', regulator: '31600' },
  Yamaha: { padsFront: 'W0045', padsRear: 'W0046', disc: '2582U', oil: '13440', air: '14451', clutch: '16321', gasket: '11181', regulator: '81960' },
  Kawasaki: { padsFront: '43082', padsRear: '43082', disc: '41080', oil: '16097', air: '11013', clutch: '13088', gasket: '11004', regulator: '21066' },
  Suzuki: { padsFront: '59100', padsRear: '69100', disc: '59210', oil: '16510', air: '13780', clutch: '21441', gasket: '11141', regulator: '32800' },
  KTM: { padsFront: '013', padsRear: '113', disc: '009', oil: '038', air: '006', clutch: '032', gasket: '030', regulator: '011' },
  BMW: { padsFront: '34 11', padsRear: '34 21', disc: '34 11', oil: '11 42', air: '13 71', clutch: '21 21', gasket: '11 12', regulator: '12 31' },
};

export type DemoRandom = ReturnType<typeof seeded>;
export type DemoNumbers = ReturnType<typeof demoNumbers>;

/** The generator of the demo's numbers, drawing on `random`. */
export function demoNumbers(random: DemoRandom) {
  const taken = new Set<string>();
  /** A number not given before, whose normalised form starts like none of the demo's first numbers. */
  const fresh = (make: () => string): string => {
    for (let attempt = 0; attempt < 100; attempt++) {
      const raw = make();
      const normalised = normalisePartNumber(raw);
      if (taken.has(normalised) || reservedPrefixes.some((p) => normalised.startsWith(p))) continue;
      taken.add(normalised);
      return raw;
    }
    throw new Error('The demo catalog ran out of fresh part numbers: change its tables');
  };
  const brandEan = new Map(demoBrands.map((b) => [b.name, b.ean]));
  const ean = (brand: string): DemoNumber[] => {
    const prefix = brandEan.get(brand);
    if (!prefix || random.next() < 0.2) return [];
    const raw = fresh(() => {
      const twelve = prefix + random.digits(12 - prefix.length);
      return `${twelve}${ean13CheckDigit(twelve)}`;
    });
    return [{ kind: 'ean', raw, brand: null }];
  };
  const oem = (make: MakeName, family: Family, code: string): DemoNumber => {
    const group = oemFamilies[make][family] ?? '00000';
    const formats: Record<MakeName, () => string> = {
      Honda: () => `${group}-${code}-${random.letter('ABDJ')}${random.digits(2)}`,
      Yamaha: () => `${code}-${group}-${random.digits(1)}0`,
      Kawasaki: () => `${group}-${random.digits(4)}`,
      Suzuki: () => `${group}-${random.digits(2)}${random.letter('ABCDEFGHJK')}${random.digits(1)}0`,
      KTM: () => `${code}${group}${random.digits(3)}000`,
      BMW: () => `${group} ${code} ${random.digits(3)} ${random.digits(3)}`,
    };
    return { kind: 'oem', raw: fresh(formats[make]), brand: null };
  };
  /** An OEM number for each maker among `models` (the first of its models names its code). */
  const oems = (models: DemoModel[], family: Family): DemoNumber[] => {
    const firstOfMake = new Map<MakeName, DemoModel>();
    for (const m of models) if (!firstOfMake.has(m.make)) firstOfMake.set(m.make, m);
    return [...firstOfMake.values()].map((m) => oem(m.make, family, m.code));
  };
  return { fresh, ean, oem, oems };
}
