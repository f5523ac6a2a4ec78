import { builder } from './builder.js';
import { listWorkspaces, type WorkspaceList, type WorkspaceSummary } from '../resolvers/account/list-workspaces.js';

export const WorkspaceRef = builder.objectRef<WorkspaceSummary>('Workspace').implement({
  fields: (t) => ({
    workspaceId: t.exposeInt('workspaceId'),
    name: t.exposeString('name'),
    domainCount: t.exposeInt('domainCount'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const WorkspaceListRef = builder.objectRef<WorkspaceList>('WorkspaceList').implement({
  fields: (t) => ({
    workspaces: t.field({ type: [WorkspaceRef], resolve: (w) => w.workspaces }),
    unfiledDomainCount: t.exposeInt('unfiledDomainCount'),
  }),
});

builder.queryField('workspaces', (t) =>
  t.field({
    type: WorkspaceListRef,
    description: 'Folders and the number of domains in each.',
    authScopes: { read: true },
    resolve: (_root, _args, ctx) => listWorkspaces(ctx),
  }),
);
