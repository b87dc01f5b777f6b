import { normalisePartNumber, type PriceTier } from '@partsyard/common';
import { demoBrands, demoModels, type DemoModel, type MakeName } from './demoCatalogData';
import type { PartNumberKind } from './partLinksSchema';

/**
 * The grown demo catalog (issue 33 point 7): a few hundred parts with brands, categories, numbers in their makers'
 * formats, fitment (positions, quantities, notes) and supersessions, on some 350 vehicles, generated from the
 * tables of demoCatalogData.ts by a seeded generator, so that every start makes the same catalog. Pure data:
 * catalogSeed.ts writes it. None of it fits the demo's first bikes (CRF450R, YZ450F), and none is universal, so
 * their lists stay as catalogSeed.ts makes them.
 */

export interface DemoVehicle {
  make: MakeName;
  model: string;
  year: number;
  variant: string;
}

export interface DemoNumber {
  kind: PartNumberKind;
  raw: string;
  /** The brand the number is of (a manufacturer's or interchange number), null for OEM numbers and EANs. */
  brand: string | null;
}

export interface DemoFitment {
  vehicle: DemoVehicle;
  position: string;
  quantity: number;
  note: string;
}

export interface DemoPart {
  name: string;
  description: string;
  image: string;
  priceCents: number;
  minOrder: number;
  available: number;
  packSize: number;
  priceTiers: PriceTier[];
  brand: string;
  /** A category of the second level (demoCategories). */
  category: string;
  numbers: DemoNumber[];
  fitments: DemoFitment[];
  /** The name of the part that replaces this one (an earlier design), or null. */
  replacedBy: string | null;
}

export interface DemoCatalog {
  vehicles: DemoVehicle[];
  parts: DemoPart[];
}

/** The demo's first numbers: no generated number starts like them, so looking them up finds what it always did. */
const reservedPrefixes = ['FA185', '06455MEN', '520VX3', 'CR9E', '087295'];

/** mulberry32: a small seeded generator, the same sequence on every run. */
function seeded(seed: number) {
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

type Family =
  | 'padsFront'
  | 'padsRear'
  | 'disc'
  | 'chain'
  | 'sprocketFront'
  | 'sprocketRear'
  | 'clutch'
  | 'oil'
  | 'air'
  | 'gasket'
  | 'plug'
  | 'battery'
  | 'regulator'
  | 'forkSeals';

/** What every part of a family shares: its category, picture, price range (dollars), minimum order and stock. */
const families: Record<
  Family,
  { category: string; image: string; price: [number, number]; minOrder: number; stock: [number, number] }
> = {
  padsFront: { category: 'Brake pads', image: 'brake-pads', price: [29, 49], minOrder: 20, stock: [100, 900] },
  padsRear: { category: 'Brake pads', image: 'brake-pads', price: [24, 39], minOrder: 20, stock: [100, 800] },
  disc: { category: 'Brake discs', image: 'brake-disc', price: [149, 289], minOrder: 5, stock: [10, 120] },
  chain: { category: 'Chains', image: 'chain', price: [99, 189], minOrder: 10, stock: [40, 400] },
  sprocketFront: { category: 'Sprockets', image: 'sprocket', price: [14, 23], minOrder: 15, stock: [100, 900] },
  sprocketRear: { category: 'Sprockets', image: 'sprocket', price: [39, 65], minOrder: 15, stock: [50, 500] },
  clutch: { category: 'Clutch kits', image: 'clutch-plates', price: [89, 159], minOrder: 10, stock: [20, 300] },
  oil: { category: 'Oil filters', image: 'oil-filter', price: [7, 13], minOrder: 50, stock: [500, 4000] },
  air: { category: 'Air filters', image: 'air-filter', price: [19, 75], minOrder: 12, stock: [50, 600] },
  gasket: { category: 'Gaskets', image: 'gasket', price: [29, 49], minOrder: 10, stock: [30, 300] },
  plug: { category: 'Spark plugs', image: 'spark-plug', price: [4, 15], minOrder: 50, stock: [500, 5000] },
  battery: { category: 'Batteries', image: 'battery', price: [59, 249], minOrder: 10, stock: [20, 300] },
  regulator: { category: 'Regulator rectifiers', image: 'regulator', price: [129, 169], minOrder: 5, stock: [10, 150] },
  forkSeals: { category: 'Fork seals', image: 'fork-seal', price: [24, 35], minOrder: 20, stock: [100, 800] },
};

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

/** K&N's letters for each maker in its air filters' numbers. */
const knMakeCodes: Record<MakeName, string> = {
  Honda: 'HA',
  Yamaha: 'YA',
  Kawasaki: 'KA',
  Suzuki: 'SU',
  KTM: 'KT',
  BMW: 'BM',
};

/** Lithium batteries offered beside the Yuasa of the same size (its number is their interchange). */
const lithiumFor: Record<string, string> = {
  YTZ10S: 'LFX09L1-BS12',
  YTZ14S: 'LFX14A4-BS12',
  'YTX14-BS': 'LFX14A4-BS12H',
  YTZ7S: 'LFX07A1-BS12',
};

const modelName = (m: DemoModel) => `${m.make} ${m.name}`;

/** "the Yamaha MT-07 and XSR700", "the Honda CB500F, CB650R and NC750X" (makes once, in order). */
function modelList(models: DemoModel[]): string {
  const byMake = new Map<string, string[]>();
  for (const m of models) byMake.set(m.make, [...(byMake.get(m.make) ?? []), m.name]);
  const phrases = [...byMake].map(([make, names]) =>
    names.length === 1 ? `${make} ${names[0]}` : `${make} ${names.slice(0, -1).join(', ')} and ${names.at(-1)}`,
  );
  return phrases.length === 1 ? phrases[0] : `${phrases.slice(0, -1).join('; ')}; ${phrases.at(-1)}`;
}

const yearSpan = (models: DemoModel[]) => {
  const from = Math.min(...models.map((m) => m.years[0]));
  const to = Math.max(...models.map((m) => m.years[1]));
  return from === to ? `${from}` : `${from}–${to}`;
};

/** The catalog: the same on every call. */
export function demoCatalog(): DemoCatalog {
  const random = seeded(0x5eed33);
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

  const vehicles: DemoVehicle[] = [];
  const vehiclesOf = new Map<DemoModel, DemoVehicle[]>();
  for (const m of demoModels) {
    const own: DemoVehicle[] = [];
    for (let year = m.years[0]; year <= m.years[1]; year++) {
      for (const v of m.variants ?? [{ name: '' }]) {
        if ((v.from ?? year) <= year && year <= (v.to ?? year)) {
          own.push({ make: m.make, model: m.name, year, variant: v.name });
        }
      }
    }
    vehiclesOf.set(m, own);
    vehicles.push(...own);
  }
  const fitting = (models: DemoModel[], row: (m: DemoModel, v: DemoVehicle) => Omit<DemoFitment, 'vehicle'> | null) =>
    models.flatMap((m) =>
      (vehiclesOf.get(m) ?? []).flatMap((vehicle) => {
        const fit = row(m, vehicle);
        return fit ? [{ vehicle, ...fit }] : [];
      }),
    );
  const fit = (position: string, quantity = 1, note = '') => ({ position, quantity, note });

  const parts: DemoPart[] = [];
  const add = (
    family: Family,
    part: Pick<DemoPart, 'name' | 'description' | 'brand' | 'numbers' | 'fitments'> &
      Partial<Pick<DemoPart, 'packSize' | 'replacedBy'>> & { price?: [number, number]; tiers?: [number, number][] },
  ): DemoPart => {
    const f = families[family];
    const [lo, hi] = part.price ?? f.price;
    const priceCents = random.int(lo, hi) * 100 - random.pick([5, 10, 10, 51]);
    const packSize = part.packSize ?? 1;
    const [sLo, sHi] = f.stock;
    const available = random.next() < 0.08 ? 0 : Math.floor(random.int(sLo, sHi) / packSize) * packSize;
    const made: DemoPart = {
      name: part.name,
      description: part.description,
      image: `/images/parts/${f.image}.svg`,
      priceCents,
      minOrder: f.minOrder,
      available,
      packSize,
      priceTiers: (part.tiers ?? []).map(([minUnits, share]) => ({
        minUnits,
        priceCents: Math.round((priceCents * share) / 5) * 5,
      })),
      brand: part.brand,
      category: f.category,
      numbers: part.numbers,
      fitments: part.fitments,
      replacedBy: part.replacedBy ?? null,
    };
    parts.push(made);
    return made;
  };
  /** An earlier design of `current`, replaced by it: out of stock, fitting nothing, its own number still found. */
  const earlier = (family: Family, current: DemoPart, name: string, raw: string) =>
    add(family, {
      name,
      description: `Replaced by ${current.name}; listed so that its number still finds the part to order.`,
      brand: current.brand,
      numbers: [{ kind: 'manufacturer', raw: fresh(() => raw), brand: current.brand }],
      fitments: [],
      replacedBy: current.name,
    });

  // Brakes: each model's pads and discs, shared by the models that take its brakes (brakesAs).
  let ebcFirst = true;
  let supersededPads = false;
  for (const m of demoModels.filter((model) => !model.brakesAs)) {
    const sharing = [m, ...demoModels.filter((other) => other.brakesAs === m.name)];
    const who = modelList(sharing);
    const years = yearSpan(sharing);
    const front = fitting(sharing, (s) => fit('front', s.discs));
    const rear = fitting(sharing, () => fit('rear'));
    const interchange = (): DemoNumber => ({
      kind: 'interchange',
      raw: fresh(() => `VD-${random.int(100, 999)}JL`),
      brand: 'Vesrah',
    });
    if (m.kind === 'dirt') {
      const [frontBrand, rearBrand] = ebcFirst ? ['EBC', 'Galfer'] : ['Galfer', 'EBC'];
      const pads = (brand: string, end: string) => {
        const raw = fresh(() => (brand === 'EBC' ? `MXS${random.int(200, 699)}` : `FD${random.int(100, 499)}G1375`));
        const line = brand === 'EBC' ? 'MXS Racing Sintered' : 'Sintered Off-Road';
        return { raw, name: `${brand} ${line} Brake Pads ${raw}`, end };
      };
      for (const [family, brand, fitments, end] of [
        ['padsFront', frontBrand, front, 'front'],
        ['padsRear', rearBrand, rear, 'rear'],
      ] as const) {
        const p = pads(brand, end);
        add(family, {
          name: p.name,
          description: `Sintered ${end} pads for the ${who} (${years}): full bite in mud and water, slow wear on sandy tracks.`,
          brand,
          numbers: [
            { kind: 'manufacturer', raw: p.raw, brand },
            ...oems(sharing, family),
            interchange(),
            ...ean(brand),
          ],
          fitments,
        });
      }
    } else {
      const [frontBrand, rearBrand] = ebcFirst ? ['EBC', 'SBS'] : ['SBS', 'EBC'];
      for (const [family, brand, fitments, end] of [
        ['padsFront', frontBrand, front, 'front'],
        ['padsRear', rearBrand, rear, 'rear'],
      ] as const) {
        const raw = fresh(() =>
          brand === 'EBC' ? `FA${random.int(200, 699)}HH` : `${random.int(600, 999)}${end === 'front' ? 'HS' : 'LS'}`,
        );
        const name =
          brand === 'EBC'
            ? `EBC Double-H Sintered Brake Pads ${raw}`
            : `SBS ${end === 'front' ? 'Dual Sinter' : 'Rear Sinter'} Brake Pads ${raw}`;
        const pads = add(family, {
          name,
          description: `Road-legal sintered ${end} pads for the ${who} (${years}): firm lever, steady bite from cold to track heat.`,
          brand,
          numbers: [{ kind: 'manufacturer', raw, brand }, ...oems(sharing, family), interchange(), ...ean(brand)],
          fitments,
        });
        // One road bike's EBC pads replaced the semi-sintered V-pads: the old number finds these.
        if (brand === 'EBC' && end === 'front' && !supersededPads) {
          supersededPads = true;
          const old = `${raw.slice(0, -2)}V`;
          earlier('padsFront', pads, `EBC V-Pad Semi-Sintered Brake Pads ${old}, earlier compound`, old);
        }
      }
      // Front discs; a model sold with and without ABS takes a disc of its own for each.
      const withAbs = (m.variants ?? []).some((v) => v.name === 'ABS');
      for (const absOnly of withAbs ? [false, true] : [false]) {
        const brand = m.kind === 'road' ? 'Brembo' : 'Galfer';
        const raw = fresh(() => (brand === 'Brembo' ? `78B408${random.digits(2)}` : `DF${random.int(100, 899)}CW`));
        const size = m.discs === 2 ? random.pick([310, 320, 330]) : random.pick([276, 290, 296]);
        add('disc', {
          name: `${brand} ${brand === 'Brembo' ? 'Serie Oro' : 'Wave'} Front Brake Disc ${size} mm${absOnly ? ', ABS' : ''} ${raw}`,
          description: `Floating stainless front disc, ${size} mm, for the ${who} (${years})${absOnly ? ' with ABS: it carries the ABS sensor ring' : ''}. Sold singly${m.discs === 2 ? '; the bike takes two' : ''}.`,
          brand,
          numbers: [{ kind: 'manufacturer', raw, brand }, ...oems(sharing, 'disc'), ...ean(brand)],
          fitments: fitting(sharing, (s, v) =>
            withAbs && (v.variant === 'ABS') !== absOnly ? null : fit('front', s.discs, absOnly ? 'with ABS only' : ''),
          ),
        });
      }
    }
    ebcFirst = !ebcFirst;
  }

  // Drive: chains by pitch (cut to each bike's links), sprockets by maker and teeth, a clutch kit per model.
  const chained = demoModels.filter((m) => m.chain);
  const chains: [brand: string, raw: string, line: string, fits: (m: DemoModel) => boolean][] = [
    ['DID', '520ERT3-120', 'ERT3 Gold MX', (m) => m.kind === 'dirt' && m.chain?.pitch === 520],
    ['RK', '520MXZ4-120', 'MXZ4 Heavy Duty MX', (m) => m.kind === 'dirt' && m.chain?.pitch === 520],
    ['EK', '520SRX2-120', 'SRX2 X-Ring', (m) => m.kind !== 'dirt' && m.chain?.pitch === 520],
    ['RK', '525XSO-120', 'XSO RX-Ring', (m) => m.chain?.pitch === 525],
    ['DID', '525ZVMX-120', 'ZVM-X Super Street X-Ring', (m) => m.chain?.pitch === 525],
  ];
  for (const [brand, raw, line, fits] of chains) {
    const models = chained.filter(fits);
    const pitch = raw.slice(0, 3);
    add('chain', {
      name: `${brand} ${pitch} ${line} Chain, 120 Links`,
      description: `${pitch} pitch ${line} chain with a rivet master link, 120 links: cut to length for the ${modelList(models)}.`,
      brand,
      numbers: [{ kind: 'manufacturer', raw: fresh(() => raw), brand }, ...ean(brand)],
      fitments: fitting(models, (m) =>
        fit('', 1, m.chain && m.chain.links < 120 ? `cut to ${m.chain.links} links` : ''),
      ),
      tiers: [
        [50, 0.93],
        [100, 0.88],
      ],
    });
  }
  for (const [family, end, index] of [
    ['sprocketFront', 'Front', 0],
    ['sprocketRear', 'Rear', 1],
  ] as const) {
    const groups = new Map<string, DemoModel[]>();
    for (const m of chained) {
      const key = `${m.make} ${m.chain?.pitch} ${m.teeth?.[index]}`;
      groups.set(key, [...(groups.get(key) ?? []), m]);
    }
    for (const models of groups.values()) {
      const [m] = models;
      const teeth = m.teeth?.[index];
      const raw = fresh(() => `JT${end[0]}${random.int(200, 1899)}.${teeth}`);
      add(family, {
        name: `JT ${end} Sprocket ${teeth}T, ${m.chain?.pitch} Pitch (${raw})`,
        description: `${end === 'Front' ? 'Chromoly steel' : 'Hardened carbon-steel'} ${end.toLowerCase()} sprocket, ${teeth} teeth, for the ${modelList(models)} (${yearSpan(models)}).`,
        brand: 'JT Sprockets',
        numbers: [{ kind: 'manufacturer', raw, brand: 'JT Sprockets' }, ...ean('JT Sprockets')],
        fitments: fitting(models, () => fit('')),
      });
    }
  }
  for (const m of demoModels) {
    const brand = m.kind === 'dirt' ? 'Vesrah' : 'EBC';
    const raw = fresh(() => (brand === 'EBC' ? `CK${random.int(1100, 5999)}` : `VC-${random.int(100, 999)}`));
    add('clutch', {
      name: `${brand} ${brand === 'EBC' ? 'CK' : 'Racing'} Clutch Kit ${raw}`,
      description: `Friction plates and steels for the ${modelName(m)} (${yearSpan([m])}), cork-based for a smooth take-up.`,
      brand,
      numbers: [{ kind: 'manufacturer', raw, brand }, oem(m.make, 'clutch', m.code), ...ean(brand)],
      fitments: fitting([m], () => fit('')),
    });
  }

  // Engine: oil filters shared by many bikes, an air filter per model, top-end gaskets for the dirt bikes.
  const byFilter = new Map<string, DemoModel[]>();
  for (const m of demoModels) if (m.oilFilter) byFilter.set(m.oilFilter, [...(byFilter.get(m.oilFilter) ?? []), m]);
  for (const [code, models] of byFilter) {
    add('oil', {
      name: `HifloFiltro Oil Filter ${code}`,
      description: `Spin-on oil filter with a nitrile anti-drain-back valve, for the ${modelList(models)}.`,
      brand: 'HifloFiltro',
      numbers: [
        { kind: 'manufacturer', raw: fresh(() => code), brand: 'HifloFiltro' },
        { kind: 'interchange', raw: fresh(() => `KN-${code.slice(2)}`), brand: 'K&N' },
        ...oems(models, 'oil'),
        ...ean('HifloFiltro'),
      ],
      fitments: fitting(models, () => fit('')),
      tiers: [
        [200, 0.92],
        [500, 0.85],
      ],
    });
  }
  let supersededFilter = false;
  for (const m of demoModels) {
    const dirt = m.kind === 'dirt';
    const brand = dirt ? 'Twin Air' : 'K&N';
    const raw = fresh(() => (dirt ? `15${random.digits(4)}` : `${knMakeCodes[m.make]}-${random.int(1000, 9999)}`));
    const filter = add('air', {
      name: dirt ? `Twin Air Dual-Stage Foam Air Filter ${raw}` : `K&N High-Flow Air Filter ${raw}`,
      description: dirt
        ? `Oiled two-layer foam that stops fine dust on the ${modelName(m)} (${yearSpan([m])}); wash and re-oil between races.`
        : `Washable cotton-gauze filter for the ${modelName(m)} (${yearSpan([m])}), a drop-in for the paper original.`,
      brand,
      numbers: [{ kind: 'manufacturer', raw, brand }, oem(m.make, 'air', m.code), ...ean(brand)],
      fitments: fitting([m], () => fit('')),
      price: dirt ? [19, 29] : [49, 75],
    });
    if (dirt && !supersededFilter) {
      supersededFilter = true;
      earlier('air', filter, `Twin Air Foam Air Filter ${Number(raw) - 1}, earlier foam`, String(Number(raw) - 1));
    }
    if (dirt) {
      const gasket = fresh(() => `P400${random.digits(9)}`);
      add('gasket', {
        name: `Athena Top End Gasket Kit ${gasket}`,
        description: `Head, base and valve-cover gaskets with every seal for a top-end rebuild of the ${modelName(m)}.`,
        brand: 'Athena',
        numbers: [
          { kind: 'manufacturer', raw: gasket, brand: 'Athena' },
          oem(m.make, 'gasket', m.code),
          ...ean('Athena'),
        ],
        fitments: fitting([m], () => fit('')),
      });
    }
  }

  // Ignition: one plug per NGK number, one per cylinder.
  const byPlug = new Map<string, DemoModel[]>();
  for (const m of demoModels) byPlug.set(m.plug, [...(byPlug.get(m.plug) ?? []), m]);
  const densoHeat: Record<string, number> = { '6': 20, '7': 22, '8': 24, '9': 27 };
  for (const [code, models] of byPlug) {
    const iridium = code.includes('I');
    const heat = densoHeat[/\d/.exec(code)?.[0] ?? '8'] ?? 24;
    add('plug', {
      // Words chosen so that a search for the demo's "Iridium Spark" plug still finds it alone.
      name: iridium ? `NGK Laser Iridium Plug ${code}` : `NGK Standard Spark Plug ${code}`,
      description: iridium
        ? `Fine iridium centre electrode and platinum ground tip, heat range ${/\d/.exec(code)?.[0]}, for the ${modelList(models)}. Boxes of 10.`
        : `Nickel-alloy electrode, heat range ${/\d/.exec(code)?.[0]}, as fitted new to the ${modelList(models)}. Boxes of 10.`,
      brand: 'NGK',
      numbers: [
        { kind: 'manufacturer', raw: fresh(() => code), brand: 'NGK' },
        { kind: 'interchange', raw: iridium ? `IU${heat}` : `U${heat}ESR-N`, brand: 'Denso' },
        ...ean('NGK'),
      ],
      fitments: fitting(models, (m) => fit('', m.cylinders)),
      price: iridium ? [9, 15] : [4, 6],
      packSize: 10,
      tiers: [
        [200, 0.92],
        [500, 0.85],
      ],
    });
  }

  // Electrical: batteries by size (a lithium one beside some), a regulator rectifier per maker's road bikes.
  const byBattery = new Map<string, DemoModel[]>();
  for (const m of demoModels) if (m.battery) byBattery.set(m.battery, [...(byBattery.get(m.battery) ?? []), m]);
  for (const [code, models] of byBattery) {
    const fitments = fitting(models, () => fit(''));
    add('battery', {
      name: `Yuasa ${code} Maintenance-Free AGM Battery`,
      description: `Factory-sealed AGM battery, ready to fit, for the ${modelList(models)}.`,
      brand: 'Yuasa',
      numbers: [{ kind: 'manufacturer', raw: fresh(() => code), brand: 'Yuasa' }, ...ean('Yuasa')],
      fitments,
      price: [59, 129],
    });
    const lithium = lithiumFor[code];
    if (lithium) {
      add('battery', {
        name: `Shorai ${lithium} Lithium Battery`,
        description: `LiFePO4 battery in the ${code}'s case size at a third of its weight, for the ${modelList(models)}.`,
        brand: 'Shorai',
        numbers: [
          { kind: 'manufacturer', raw: fresh(() => lithium), brand: 'Shorai' },
          { kind: 'interchange', raw: code, brand: 'Yuasa' },
          ...ean('Shorai'),
        ],
        fitments,
        price: [149, 249],
      });
    }
  }
  for (const make of new Set(demoModels.map((m) => m.make))) {
    const models = demoModels.filter((m) => m.make === make && m.kind !== 'dirt');
    if (!models.length) continue;
    // Suzuki's regulator is the end of a chain of two replacements: the first series by the second, that by the third.
    const chain = make === 'Suzuki';
    const digits = random.int(100, 899);
    const raw = fresh(() => (chain ? `ESR${digits}-3` : `ESR${digits}`));
    const regulator = add('regulator', {
      name: `Electrosport MOSFET Regulator Rectifier ${raw}`,
      description: `Runs cooler than the original and charges steadily at idle, for the ${modelList(models)}.`,
      brand: 'Electrosport',
      numbers: [
        { kind: 'manufacturer', raw, brand: 'Electrosport' },
        ...oems(models, 'regulator'),
        ...ean('Electrosport'),
      ],
      fitments: fitting(models, () => fit('')),
    });
    if (chain) {
      const second = earlier(
        'regulator',
        regulator,
        `Electrosport Regulator Rectifier ESR${digits}, second series`,
        `ESR${digits}-2`,
      );
      earlier('regulator', second, `Electrosport Regulator Rectifier ESR${digits}, first series`, `ESR${digits}`);
    }
  }

  // Suspension: fork seal kits by tube diameter (a variant with its own fork takes its own kit, or none).
  const forkOf = (m: DemoModel, variant: string) =>
    m.forkByVariant && variant in m.forkByVariant ? m.forkByVariant[variant] : m.fork;
  const diameters = [...new Set(demoModels.flatMap((m) => [m.fork, ...Object.values(m.forkByVariant ?? {})]))]
    .filter((d): d is number => d !== null)
    .sort((a, b) => a - b);
  for (const d of diameters) {
    const models = demoModels.filter((m) => (vehiclesOf.get(m) ?? []).some((v) => forkOf(m, v.variant) === d));
    add('forkSeals', {
      name: `All Balls Fork Oil & Dust Seal Kit ${d} mm`,
      description: `Two oil seals and two dust wipers for ${d} mm fork tubes: both legs of the ${modelList(models)}.`,
      brand: 'All Balls',
      numbers: [
        { kind: 'manufacturer', raw: fresh(() => `56-${random.int(100, 199)}`), brand: 'All Balls' },
        ...ean('All Balls'),
      ],
      fitments: fitting(models, (m, v) =>
        forkOf(m, v.variant) === d ? fit('front', 1, m.fork !== d ? `the ${v.variant}'s own ${d} mm fork` : '') : null,
      ),
    });
  }

  return { vehicles, parts };
}
