import type { MockedResponse } from '@apollo/client/testing';
import { PickerMakesDocument, PickerModelsDocument, PickerVehiclesDocument } from '../../src/generated/picker';

/** The picker's lists as the API answers them: three makes, Honda's models, and the CRF450R's years and variants. */
const make = (id: string, name: string) => ({ __typename: 'Make', id, name });
const model = (id: string, name: string) => ({ __typename: 'Model', id, name });
const vehicle = (id: string, year: number, variant = '') => ({
  __typename: 'Vehicle',
  id,
  year,
  variant,
  name: `${year} Honda CRF450R${variant ? ` ${variant}` : ''}`,
});

export const crf2019 = vehicle('v-2019', 2019);
export const crf2019Abs = vehicle('v-2019-abs', 2019, 'ABS');
export const crf2020 = vehicle('v-2020', 2020);

const reusable = { maxUsageCount: 100 };

export const pickerMocks: MockedResponse[] = [
  {
    request: { query: PickerMakesDocument },
    result: { data: { makes: [make('m-honda', 'Honda'), make('m-husq', 'Husqvarna'), make('m-yamaha', 'Yamaha')] } },
    ...reusable,
  },
  {
    request: { query: PickerModelsDocument, variables: { makeId: 'm-honda' } },
    result: {
      data: {
        models: [model('crf250r', 'CRF250R'), model('crf450r', 'CRF450R'), model('crf450rx', 'CRF450RX')],
      },
    },
    ...reusable,
  },
  {
    request: { query: PickerModelsDocument, variables: { makeId: 'm-yamaha' } },
    result: { data: { models: [model('yz450f', 'YZ450F')] } },
    ...reusable,
  },
  {
    request: { query: PickerVehiclesDocument, variables: { modelId: 'crf450r' } },
    result: { data: { vehicles: [crf2020, crf2019, crf2019Abs, vehicle('v-2018', 2018)] } },
    ...reusable,
  },
];
