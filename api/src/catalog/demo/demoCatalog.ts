import type { PriceTier } from '@partsyard/common';
import type { PartNumberKind } from '../partLinksSchema';
import { demoModels, type DemoModel, type MakeName } from './demoCatalogData';
import { demoNumbers, seeded, type DemoNumbers, type DemoRandom } from './demoNumbers';
import { brakeParts, driveParts, electricalParts, engineParts, ignitionParts, suspensionParts } from './demoParts';

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

export type Family =
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

/** What the part groups of demoParts.ts draw on: the randomness, the numbers, the bikes, and the parts made so far. */
export interface DemoContext extends DemoNumbers {
  random: DemoRandom;
  vehiclesOf: Map<DemoModel, DemoVehicle[]>;
  /** The fitment rows of `models`' vehicles, as `row` says for each (null: not that vehicle). */
  fitting: (
    models: DemoModel[],
    row: (m: DemoModel, v: DemoVehicle) => Omit<DemoFitment, 'vehicle'> | null,
  ) => DemoFitment[];
  fit: (position: string, quantity?: number, note?: string) => Omit<DemoFitment, 'vehicle'>;
  /** Adds a part of `family`, priced and stocked within the family's ranges. */
  add: (
    family: Family,
    part: Pick<DemoPart, 'name' | 'description' | 'brand' | 'numbers' | 'fitments'> &
      Partial<Pick<DemoPart, 'packSize' | 'replacedBy'>> & { price?: [number, number]; tiers?: [number, number][] },
  ) => DemoPart;
  /** An earlier design of `current`, replaced by it: out of stock, fitting nothing, its own number still found. */
  earlier: (family: Family, current: DemoPart, name: string, raw: string) => DemoPart;
}

/** The catalog: the same on every call. */
export function demoCatalog(): DemoCatalog {
  const random = seeded(0x5eed33);
  const numbers = demoNumbers(random);
  const { fresh } = numbers;
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
  const fitting: DemoContext['fitting'] = (models, row) =>
    models.flatMap((m) =>
      (vehiclesOf.get(m) ?? []).flatMap((vehicle) => {
        const fit = row(m, vehicle);
        return fit ? [{ vehicle, ...fit }] : [];
      }),
    );
  const fit: DemoContext['fit'] = (position, quantity = 1, note = '') => ({ position, quantity, note });

  const parts: DemoPart[] = [];
  const add: DemoContext['add'] = (family, part) => {
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
  const earlier: DemoContext['earlier'] = (family, current, name, raw) =>
    add(family, {
      name,
      description: `Replaced by ${current.name}; listed so that its number still finds the part to order.`,
      brand: current.brand,
      numbers: [{ kind: 'manufacturer', raw: fresh(() => raw), brand: current.brand }],
      fitments: [],
      replacedBy: current.name,
    });

  const context: DemoContext = { ...numbers, random, vehiclesOf, fitting, fit, add, earlier };
  for (const group of [brakeParts, driveParts, engineParts, ignitionParts, electricalParts, suspensionParts]) {
    group(context);
  }
  return { vehicles, parts };
}
