// The app permissions the phone tracks, in the order the reference's model declares (and lists) them.
import type { AppPermissions } from './user_data_model.ts';

export const PERMISSIONS: readonly (keyof AppPermissions)[] = ['sms', 'storage', 'phone', 'network'];

export const isPermission = (name: string): name is keyof AppPermissions => (PERMISSIONS as readonly string[]).includes(name);
