import { doctor, type DoctorReport } from '../../store/doctor.js';
import { defineOp } from '../_define.js';

export const op = defineOp<{ fix?: boolean }, DoctorReport>({
  name: 'store.doctor',
  async run(input, { ws }) {
    const store = await ws.store({ allowInvalidConfig: true });
    const report = await doctor(store.root, { fix: input.fix === true });
    const recovered = report.recovered ?? store.recovered;
    return { ...report, ...(recovered === undefined ? {} : { recovered }) };
  },
});
